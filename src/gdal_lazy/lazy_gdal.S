// GDAL on first use: an entry point for every GDAL function libtacocore calls (gdal_symbols.def),
// so a program linked with this object instead of libgdal starts without loading GDAL and the
// ~110 libraries it pulls in (~38 ms of every `taco` process start, docs/READER.md).
//
// Each entry point jumps through its slot. A slot first holds the address of a small stub that
// names the slot in %r11 and enters lazy_gdal_entry; that saves every register a call may pass
// arguments in, asks taco_gdal_resolve (lazy_gdal.cpp) to load GDAL and fill every slot, restores
// the registers and jumps to the real function, which then returns straight to the caller. Later
// calls cost one indirect jump. The same technique as Implib.so and the dynamic linker's PLT.
//
// x86-64 System V only (CMakeLists.txt builds this file only there).

#define TACO_GDAL_SYMBOL(name)                                                                     \
    .text;                                                                                         \
    .globl name;                                                                                   \
    .hidden name;                                                                                  \
    .type name, @function;                                                                         \
    name:                                                                                          \
    jmp *taco_gdal_slot_##name(%rip);                                                              \
    taco_gdal_first_##name:                                                                        \
    leaq taco_gdal_slot_##name(%rip), %r11;                                                        \
    jmp lazy_gdal_entry;                                                                           \
    .size name, .- name;                                                                           \
    .data;                                                                                         \
    .balign 8;                                                                                     \
    taco_gdal_slot_##name:                                                                         \
    .quad taco_gdal_first_##name;

// The slots, one after the other in gdal_symbols.def's order, between these two labels.
    .data
    .balign 8
    .globl taco_gdal_slots
    .hidden taco_gdal_slots
taco_gdal_slots:
#include "gdal_symbols.def"
    .data
    .globl taco_gdal_slots_end
    .hidden taco_gdal_slots_end
taco_gdal_slots_end:

    .text
    .type lazy_gdal_entry, @function
lazy_gdal_entry:
    // Entered by a jump from a call: %rsp is 8 past a 16-byte boundary, %r11 holds the slot.
    pushq %rbp
    movq %rsp, %rbp
    // The integer argument registers, %rax (the vector count of a variadic call such as
    // CPLError) and the slot; then the eight vector argument registers.
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax
    pushq %r11
    subq $128, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    movq %r11, %rdi
    call taco_gdal_resolve              // the stack is 16-byte aligned here
    movq %rax, 128(%rsp)                // the real function, popped into %r11 below
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    addq $128, %rsp
    popq %r11
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    popq %rbp
    jmp *%r11
    .size lazy_gdal_entry, .- lazy_gdal_entry

    .section .note.GNU-stack, "", @progbits
