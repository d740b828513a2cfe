"""Which of this process's sockets are connected to a server, and how many bytes each received:
the fork tests check that a forked child never reads on a connection its parent opened."""

from __future__ import annotations

import os
import socket
import struct


def connections_to(port: int) -> dict[int, str]:
    """{fd: socket inode} of this process's established TCP connections to `port` (IPv4)."""
    inodes = set()
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        f = line.split()
        if int(f[2].split(":")[1], 16) == port and f[3] == "01":
            inodes.add(f[9])
    out = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            out[int(fd)] = target[8:-1]
    return out


def bytes_received(fd: int) -> int:
    """tcp_info.tcpi_bytes_received of the socket `fd` (shared by every process holding it)."""
    s = socket.socket(fileno=os.dup(fd))
    try:
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
    finally:
        s.close()
    return struct.unpack_from("Q", info, 128)[0]
