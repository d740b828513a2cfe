"""gs:// and az:// against real servers on loopback, like the S3 tests against moto.

Azurite (npm, Microsoft's Azure Storage emulator) checks Shared Key signatures: the user's
AZURE_STORAGE_CONNECTION_STRING (with BlobEndpoint) reads, a wrong key gets 403.
gcp-storage-emulator (PyPI) is reached through GDAL's CPL_GS_ENDPOINT with HMAC keys
(GS_ACCESS_KEY_ID / GS_SECRET_ACCESS_KEY); it checks no signature, so the credential failure
tested is the one a user without any Google credentials gets: a clear error before any request.
Each server is started here and stopped when the module's tests are done.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from remote_paths import FIXTURES
from servers import Azurite, GcsEmulator

import tacocore

ZIP = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
FOLDER = FIXTURES / "tacoreader/folder/nested"


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def azurite():
    with Azurite() as server:
        server.put_tree(ZIP, "data")
        server.put_tree(FOLDER, "data/nested")
        # Read by the credential tests only: GDAL keeps what it learnt of a file per process.
        server.put_tree(ZIP, "fresh")
        yield server


@pytest.fixture(scope="module")
def gcs():
    with GcsEmulator() as server:
        server.put_tree(ZIP, "data")
        server.put_tree(FOLDER, "data/nested")
        # Read by the credential tests only: GDAL keeps what it learnt of a file per process.
        server.put_tree(ZIP, "fresh")
        yield server


def cloud_env(monkeypatch, env: dict) -> None:
    """The process environment a user of that store has (and nothing of the other stores)."""
    for k in list(__import__("os").environ):
        if k.startswith(("AWS_", "AZURE_", "GS_", "GOOGLE_", "CPL_GS_")):
            monkeypatch.delenv(k)
    for k, v in env.items():
        monkeypatch.setenv(k, v)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TACOCORE_CACHE_DIR", str(tmp_path / "cache"))


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def rows(ds):
    t = ds.data.to_arrow()
    return t.drop_columns([c for c in t.column_names if c == "internal:gdal_vsi"])


def local_sample_bytes(path, parent: int, child: int) -> bytes:
    return tacocore.load(str(path)).data.read(parent).read_bytes(child)


# ---- Azure (Azurite) -------------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["az", "azure"])
def test_azure_zip_load_and_read_bytes(azurite, monkeypatch, scheme):
    cloud_env(monkeypatch, azurite.env())
    url = f"{scheme}://{azurite.container}/data/nested.tacozip"
    ds = tacocore.load(url)
    assert rows(ds).equals(rows(tacocore.load(str(ZIP))))
    got = ds.data.read(1).read_bytes(2)
    assert sha(got) == sha(local_sample_bytes(ZIP, 1, 2)) and len(got) > 0
    vsi = ds.data.read(1).to_arrow().column("internal:gdal_vsi")[0].as_py()
    assert vsi.startswith("/vsisubfile/") and vsi.endswith(f",/vsiaz/{azurite.container}/data/nested.tacozip"), vsi


def test_azure_folder_load_and_read_bytes(azurite, monkeypatch):
    cloud_env(monkeypatch, azurite.env())
    ds = tacocore.load(f"az://{azurite.container}/data/nested")
    assert rows(ds).equals(rows(tacocore.load(str(FOLDER))))
    assert ds.data.read(0).read_bytes(0) == local_sample_bytes(FOLDER, 0, 0)


def test_azure_wrong_key_fails_clearly(azurite, monkeypatch, taco):
    wrong = "A" * 86 + "=="
    url = f"az://{azurite.container}/fresh/nested.tacozip"
    cloud_env(monkeypatch, azurite.env(key=wrong))
    with pytest.raises(tacocore.TacoIOError) as err:
        tacocore.load(url)
    msg = str(err.value)
    assert url in msg and "403" in msg and "AZURE_STORAGE_CONNECTION_STRING" in msg, msg
    assert "AWS_" not in msg, msg  # the hint names the store's own settings
    out = taco("info", url, env=azurite.env(key=wrong))
    assert out.returncode == 2 and url in out.stderr and "403" in out.stderr, out.stderr


def test_azure_storage_options(azurite, monkeypatch):
    cloud_env(monkeypatch, {})
    # Last of the Azure tests in this process: storage_options stay set for the location.
    ds = tacocore.load(f"az://{azurite.container}/data/nested.tacozip",
                       storage_options={"connection_string": azurite.connection_string()})
    assert rows(ds).num_rows == 3


def test_azure_cli(azurite, taco):
    url = f"az://{azurite.container}/data/nested.tacozip"
    info = json.loads(ok(taco("info", url, "--json", env=azurite.env())))
    assert info["id"] == "test_dataset"
    cat = taco("cat", url, "asia/item_0", env=azurite.env(), text=False)
    assert cat.returncode == 0 and cat.stdout == taco("cat", ZIP, "asia/item_0", text=False).stdout


# ---- Google Cloud Storage (gcp-storage-emulator) ---------------------------------------------

@pytest.mark.parametrize("scheme", ["gs", "gcs"])
def test_gcs_zip_load_and_read_bytes(gcs, monkeypatch, scheme):
    cloud_env(monkeypatch, gcs.env())
    url = f"{scheme}://{gcs.bucket}/data/nested.tacozip"
    ds = tacocore.load(url)
    assert rows(ds).equals(rows(tacocore.load(str(ZIP))))
    assert sha(ds.data.read(2).read_bytes(1)) == sha(local_sample_bytes(ZIP, 2, 1))
    vsi = ds.data.read(2).to_arrow().column("internal:gdal_vsi")[0].as_py()
    assert vsi.endswith(f",/vsigs/{gcs.bucket}/data/nested.tacozip"), vsi


def test_gcs_folder_load_and_read_bytes(gcs, monkeypatch):
    cloud_env(monkeypatch, gcs.env())
    ds = tacocore.load(f"gs://{gcs.bucket}/data/nested")
    assert rows(ds).equals(rows(tacocore.load(str(FOLDER))))
    assert ds.data.read(2).read_bytes(2) == local_sample_bytes(FOLDER, 2, 2)


def test_gcs_without_credentials_fails_clearly(gcs, monkeypatch, taco, tmp_path):
    url = f"gs://{gcs.bucket}/fresh/nested.tacozip"
    # No key, no service account, no ~/.boto: GDAL sends nothing unsigned.
    env = {"CPL_GS_ENDPOINT": gcs.endpoint, "HOME": str(tmp_path)}
    cloud_env(monkeypatch, env)
    with pytest.raises(tacocore.TacoIOError) as err:
        tacocore.load(url)
    msg = str(err.value)
    assert url in msg and "no credentials found" in msg, msg
    assert "GOOGLE_APPLICATION_CREDENTIALS" in msg and "GS_NO_SIGN_REQUEST" in msg, msg
    out = taco("info", url, env=env)
    assert out.returncode == 2 and "no credentials found" in out.stderr, out.stderr
    # The public-bucket switch users know reads it without credentials.
    assert ok(taco("info", url, env={**env, "GS_NO_SIGN_REQUEST": "YES"})).startswith("id:")


def test_gcs_missing_object_is_404(gcs, taco):
    url = f"gs://{gcs.bucket}/data/absent.tacozip"
    out = taco("info", url, env=gcs.env())
    assert out.returncode == 2 and url in out.stderr and "404" in out.stderr, out.stderr
