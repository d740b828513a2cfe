"""Real servers on loopback for the remote tests and the remote benchmark.

Nginx     nginx (Debian) serving a directory over http or https (throw-away CA), on a free port,
          with an access log parsed into Request rows to count what each operation costs.
Moto      moto's S3-compatible server (PyPI moto[server]) with credential checking on: one IAM
          user's key pair is valid, anything else (a wrong secret) gets 403.
make_ca   a CA and a leaf certificate for 127.0.0.1/localhost (openssl from Debian), so that
          tacoreader (obstore/rustls, which refuses plain http) can read from the same nginx.

Each server is started by its context manager and stopped (by its own pid) when it exits.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited at start (code {proc.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {timeout} s")


def require(tool: str, how: str) -> str:
    path = shutil.which(tool) or (f"/usr/sbin/{tool}" if Path(f"/usr/sbin/{tool}").exists() else None)
    if not path:
        raise RuntimeError(f"{tool} is not installed; {how}")
    return path


@dataclass
class Request:
    method: str
    uri: str
    status: int
    range: str
    bytes_sent: int
    if_match: str = ""


def make_ca(directory: Path) -> tuple[Path, Path, Path]:
    """(ca.pem, leaf.pem, leaf.key) in `directory`; the leaf is valid for 127.0.0.1 and localhost."""
    openssl = require("openssl", "install it with `apt-get install openssl` (scripts/setup.sh does)")
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    run = lambda *a: subprocess.run([openssl, *a], check=True, capture_output=True, cwd=d)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=tacocore test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
        "-subj", "/CN=127.0.0.1")
    (d / "leaf.ext").write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "leaf.pem", "-days", "2", "-extfile", "leaf.ext")
    return d / "ca.pem", d / "leaf.pem", d / "leaf.key"


class Nginx:
    """nginx serving `root` on 127.0.0.1; `url(rel)` gives the address of a file under it."""

    def __init__(self, root: Path, tls: tuple[Path, Path] | None = None, extra: str = ""):
        self.root = Path(root).resolve()
        self.tls = tls
        self.extra = extra
        self.dir = Path(tempfile.mkdtemp(prefix="taco-nginx-"))
        self.port = 0
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def url(self, rel: str) -> str:
        return f"{self.base}/{rel.lstrip('/')}"

    def __enter__(self) -> "Nginx":
        nginx = require("nginx", "install it with `apt-get install nginx` (scripts/setup.sh does)")
        self.port = free_port()
        listen = f"127.0.0.1:{self.port}" + (" ssl" if self.tls else "")
        tls = ""
        if self.tls:
            tls = f"ssl_certificate {self.tls[0]};\n        ssl_certificate_key {self.tls[1]};"
        (self.dir / "nginx.conf").write_text(f"""
daemon off;
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    log_format taco '$request_method $uri $status "$http_range" $body_bytes_sent "$http_if_match"';
    client_body_temp_path {self.dir}/body;
    proxy_temp_path {self.dir}/proxy;
    fastcgi_temp_path {self.dir}/fastcgi;
    uwsgi_temp_path {self.dir}/uwsgi;
    scgi_temp_path {self.dir}/scgi;
    types {{ application/json json; }}
    default_type application/octet-stream;
    server {{
        listen {listen};
        {tls}
        root {self.root};
        access_log {self.dir}/access.log taco;
        {self.extra}
    }}
}}
""")
        self.proc = subprocess.Popen([nginx, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_port(self.port, self.proc, "nginx")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def requests(self) -> list[Request]:
        """Every request logged so far (nginx writes each line when the response is done)."""
        log = self.dir / "access.log"
        out = []
        if not log.exists():
            return out
        for line in log.read_text().splitlines():
            method, uri, status, rest = line.split(" ", 3)
            rest, if_match = rest.rsplit(" ", 1)
            rng, sent = rest.rsplit(" ", 1)
            rng, if_match = rng.strip('"'), if_match.strip('"')
            out.append(Request(method, uri, int(status), "" if rng == "-" else rng, int(sent),
                               "" if if_match == "-" else if_match))
        return out

    def clear(self) -> None:
        (self.dir / "access.log").write_text("")

    def measure(self):
        """Context manager: the requests made inside the block (`with srv.measure() as got:`)."""
        srv = self

        class _Measure(list):
            def __enter__(self):
                self.start = len(srv.requests())
                return self

            def __exit__(self, *exc):
                # nginx logs after sending; give it a moment for the last line.
                time.sleep(0.05)
                self.extend(srv.requests()[self.start:])

        return _Measure()


MOTO_USER = "taco-tester"


class Moto:
    """moto's S3 server on 127.0.0.1 with authentication enforced.

    After start, `access_key` / `secret_key` are a valid pair; `bucket` exists. `put(key, path)`
    uploads a file. Requests signed with any other secret get 403 SignatureDoesNotMatch.
    """

    def __init__(self, bucket: str = "taco-bucket"):
        self.bucket = bucket
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.access_key = ""
        self.secret_key = ""

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "Moto":
        try:
            import boto3  # noqa: F401
            import moto  # noqa: F401
        except ImportError as e:
            raise RuntimeError(
                f"moto[server] is not installed ({e}); run ./scripts/setup.sh "
                "(scripts/python-requirements.txt lists it)") from e
        self.port = free_port()
        env = dict(os.environ)
        # The first few requests (creating the user, its key and the bucket) are allowed
        # unauthenticated; every later one must be signed with a valid key.
        env["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
        env.pop("AWS_ENDPOINT_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_port(self.port, self.proc, "moto server")
            self._bootstrap()
        except BaseException:
            self.__exit__(None, None, None)  # never leave the server behind
            raise
        return self

    def _bootstrap(self) -> None:
        import boto3
        anon = dict(aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap",
                    region_name="us-east-1", endpoint_url=self.endpoint)
        iam = boto3.client("iam", **anon)
        iam.create_user(UserName=MOTO_USER)
        key = iam.create_access_key(UserName=MOTO_USER)["AccessKey"]
        self.access_key, self.secret_key = key["AccessKeyId"], key["SecretAccessKey"]
        policy = {"Version": "2012-10-17",
                  "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
        iam.put_user_policy(UserName=MOTO_USER, PolicyName="s3-all",
                            PolicyDocument=__import__("json").dumps(policy))
        self.s3().create_bucket(Bucket=self.bucket)

    def s3(self):
        import boto3
        return boto3.client("s3", aws_access_key_id=self.access_key,
                            aws_secret_access_key=self.secret_key, region_name="us-east-1",
                            endpoint_url=self.endpoint)

    def put_tree(self, local: Path, prefix: str) -> None:
        local = Path(local)
        files = [local] if local.is_file() else [p for p in local.rglob("*") if p.is_file()]
        for p in files:
            rel = p.name if local.is_file() else p.relative_to(local).as_posix()
            self.s3().upload_file(str(p), self.bucket, f"{prefix}/{rel}" if prefix else rel)

    def env(self, secret: str | None = None) -> dict:
        """The AWS SDK variables a user sets to read from this server."""
        return {"AWS_ACCESS_KEY_ID": self.access_key,
                "AWS_SECRET_ACCESS_KEY": self.secret_key if secret is None else secret,
                "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": self.endpoint}

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# Azurite's well-known development account (documented by Microsoft for the emulator; not a secret).
AZURITE_ACCOUNT = "devstoreaccount1"
AZURITE_KEY = ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
               "KBHBeksoGMGw==")
AZURITE_BIN = Path(__file__).resolve().parents[2] / "third_party/azurite/node_modules/.bin/azurite-blob"


class Azurite:
    """Azurite's blob service (npm `azurite`, installed by scripts/setup.sh) on 127.0.0.1.

    Requests must carry a valid Shared Key signature of the development account: a wrong key gets
    403. `put_tree(local, prefix)` uploads files into `container`; `env(key=...)` is the
    connection string a user sets (AZURE_STORAGE_CONNECTION_STRING) to read from it.
    """

    def __init__(self, container: str = "taco-container"):
        self.container = container
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.workdir: str | None = None

    def connection_string(self, key: str = AZURITE_KEY) -> str:
        return (f"DefaultEndpointsProtocol=http;AccountName={AZURITE_ACCOUNT};AccountKey={key};"
                f"BlobEndpoint=http://127.0.0.1:{self.port}/{AZURITE_ACCOUNT};")

    def __enter__(self) -> "Azurite":
        if not AZURITE_BIN.exists():
            raise RuntimeError(f"{AZURITE_BIN} is missing; run ./scripts/setup.sh (it installs "
                               "azurite from npm into third_party/azurite)")
        try:
            import azure.storage.blob  # noqa: F401
        except ImportError as e:
            raise RuntimeError(f"azure-storage-blob is not installed ({e}); run "
                               "./scripts/setup.sh") from e
        self.port = free_port()
        self.workdir = tempfile.mkdtemp(prefix="azurite-")
        self.proc = subprocess.Popen(
            [str(AZURITE_BIN), "--blobHost", "127.0.0.1", "--blobPort", str(self.port),
             "--location", self.workdir, "--silent", "--skipApiVersionCheck", "--disableProductStyleUrl"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_port(self.port, self.proc, "azurite", timeout=60)
            self.client().create_container(self.container)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def client(self):
        from azure.storage.blob import BlobServiceClient
        return BlobServiceClient.from_connection_string(self.connection_string())

    def put_tree(self, local: Path, prefix: str) -> None:
        local = Path(local)
        files = [local] if local.is_file() else [p for p in local.rglob("*") if p.is_file()]
        container = self.client().get_container_client(self.container)
        for p in files:
            rel = p.name if local.is_file() else p.relative_to(local).as_posix()
            with open(p, "rb") as f:
                container.upload_blob(f"{prefix}/{rel}" if prefix else rel, f, overwrite=True)

    def env(self, key: str = AZURITE_KEY) -> dict:
        return {"AZURE_STORAGE_CONNECTION_STRING": self.connection_string(key)}

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


class GcsEmulator:
    """A Google Cloud Storage emulator (PyPI gcp-storage-emulator) on 127.0.0.1, reached through
    GDAL's CPL_GS_ENDPOINT. The emulator checks no signature: the credential tests here check that
    tacocore refuses to send an unsigned request and says which credentials it looked for.
    """

    def __init__(self, bucket: str = "taco-gcs"):
        self.bucket = bucket
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.workdir: str | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def __enter__(self) -> "GcsEmulator":
        try:
            import gcp_storage_emulator  # noqa: F401
        except ImportError as e:
            raise RuntimeError(f"gcp-storage-emulator is not installed ({e}); run "
                               "./scripts/setup.sh") from e
        self.port = free_port()
        self.workdir = tempfile.mkdtemp(prefix="gcs-")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gcp_storage_emulator", "start", "--host", "127.0.0.1",
             "--port", str(self.port), "--default-bucket", self.bucket, "--in-memory"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.workdir)
        try:
            _wait_port(self.port, self.proc, "gcp-storage-emulator")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def put_tree(self, local: Path, prefix: str) -> None:
        import urllib.parse
        local = Path(local)
        files = [local] if local.is_file() else [p for p in local.rglob("*") if p.is_file()]
        for p in files:
            rel = p.name if local.is_file() else p.relative_to(local).as_posix()
            name = urllib.parse.quote(f"{prefix}/{rel}" if prefix else rel, safe="")
            req = urllib.request.Request(
                f"http://127.0.0.1:{self.port}/upload/storage/v1/b/{self.bucket}/o"
                f"?uploadType=media&name={name}", data=p.read_bytes(), method="POST",
                headers={"Content-Type": "application/octet-stream"})
            with urllib.request.urlopen(req, timeout=30) as r:
                assert r.status == 200, r.status

    def env(self, **extra: str) -> dict:
        """What a user sets to read from this endpoint: GDAL's endpoint override plus an HMAC key
        pair (the emulator accepts any signature)."""
        return {"CPL_GS_ENDPOINT": self.endpoint, "GS_ACCESS_KEY_ID": "GOOGTS7C7FUP3AIRVJTE2BCD",
                "GS_SECRET_ACCESS_KEY": "bGoa+V7g/yqDXvKRqq+JTFn4uQZbPiQJo4pf9RzJ", **extra}

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
