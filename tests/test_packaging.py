"""Packaging (docs/packaging.md): one version everywhere, one abi3 wheel for every supported CPython,
and an sdist that carries every source file the build needs.

CI also builds the wheel, installs it in a fresh venv without Rust and runs `.ci/wheel_smoke.py`
there (`.ci/run`); these tests check what can be checked from the source tree.
"""

import importlib.metadata
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import boardcore as bc
import pytest

ROOT = Path(__file__).resolve().parent.parent


def workspace_version() -> str:
    cargo = (ROOT / "Cargo.toml").read_text()
    match = re.search(r'\[workspace\.package\][^\[]*?\nversion = "([^"]+)"', cargo)
    assert match, "Cargo.toml has no [workspace.package] version"
    return match.group(1)


def test_one_version_in_the_package_its_metadata_and_cargo():
    assert bc.__version__ == workspace_version()
    assert importlib.metadata.version("boardcore") == bc.__version__


def test_the_abi3_floor_is_the_oldest_python_the_package_accepts():
    pyo3_line = next(line for line in (ROOT / "rust/python/Cargo.toml").read_text().splitlines() if "pyo3 =" in line)
    floor = re.search(r'"abi3-py3(\d+)"', pyo3_line)
    assert floor, f"the binding is not built for the stable ABI: {pyo3_line}"
    requires = re.search(r'requires-python = ">=3\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert requires and requires.group(1) == floor.group(1)
    assert sys.version_info >= (3, int(floor.group(1)))


@pytest.mark.skipif(sys.platform != "linux", reason="the stable-ABI file name is checked on Linux")
def test_the_extension_is_built_for_the_stable_abi():
    assert bc._boardcore.__file__.endswith(".abi3.so"), bc._boardcore.__file__


def tracked_files(*folders: str) -> set[str]:
    listed = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(listed.stdout.split())


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout to know the tracked files")
def test_the_sdist_carries_every_source_file(tmp_path):
    maturin = shutil.which("maturin")
    assert maturin, "maturin comes with the test extra"
    subprocess.run([maturin, "sdist", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, check=True)
    (sdist,) = tmp_path.glob("boardcore-*.tar.gz")
    with tarfile.open(sdist) as archive:
        inside = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    needed = tracked_files("rust/engine/src", "rust/python/src", "python/boardcore")
    needed |= {"Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "LICENSE"}
    assert needed - inside == set()


MANYLINUX = "manylinux_2_28"
"""The Linux wheels' platform tag, in CI (.ci/run) and in the release workflow alike."""


def test_ci_builds_a_manylinux_wheel_and_checks_it_with_auditwheel():
    run = (ROOT / ".ci" / "run").read_text()
    assert f"--compatibility {MANYLINUX} --zig" in run
    assert f"auditwheel show dist/boardcore-*-abi3-{MANYLINUX}_x86_64.whl" in run
    assert f'"{MANYLINUX}_x86_64"' in run  # the tag auditwheel finds must be the one claimed


def test_the_release_workflow_builds_every_platform_and_the_sdist():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text())
    jobs = workflow["jobs"]
    targets = {
        name: sorted(p["target"] for p in job["strategy"]["matrix"]["platform"])
        for name, job in jobs.items()
        if "strategy" in job
    }
    assert targets == {"linux": ["aarch64", "x86_64"], "macos": ["aarch64", "x86_64"]}
    assert "windows" in jobs and "sdist" in jobs
    built = [step["with"] for job in jobs.values() for step in job["steps"] if "maturin-action" in step.get("uses", "")]
    assert all("--release" in w.get("args", "") for w in built if w.get("command") != "sdist")
    linux = [s["with"] for s in jobs["linux"]["steps"] if "maturin-action" in s.get("uses", "")]
    assert [w["manylinux"] for w in linux] == [MANYLINUX.removeprefix("manylinux_")]
    assert jobs["release"]["needs"] == ["linux", "macos", "windows", "sdist"]
    # Published on a version tag only, with PyPI's trusted publishing (no stored token).
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML reads the key `on` as True
    assert jobs["release"]["permissions"] == {"id-token": "write"}


def test_every_push_and_pull_request_runs_the_gates_and_tests_on_linux_and_macos_at_both_ends():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
    assert set(workflow[True]) == {"push", "pull_request"}  # YAML reads the key `on` as True
    (job,) = workflow["jobs"].values()
    matrix = job["strategy"]["matrix"]
    assert {os.split("-")[0] for os in matrix["os"]} == {"ubuntu", "macos"}
    # The lowest supported CPython (requires-python) and the highest the classifiers name.
    text = (ROOT / "pyproject.toml").read_text()
    lowest = re.search(r'requires-python = ">=(3\.\d+)"', text).group(1)
    highest = max(re.findall(r"Python :: (3\.\d+)", text), key=lambda v: int(v.split(".")[1]))
    assert sorted(matrix["python"]) == sorted([lowest, highest])
    # It installs as the README says and runs the scripts .ci/run runs, so the two cannot drift.
    commands = [step["run"] for step in job["steps"] if "run" in step and "if" not in step]
    assert commands == [
        "pip install '.[test]'", ".ci/gates", "pytest", "boardcore bench", "cargo test --release -p boardcore-engine"
    ]  # fmt: skip
    run = (ROOT / ".ci" / "run").read_text().splitlines()
    assert all(command in run for command in commands)


def test_the_metadata_names_the_licence_the_addresses_and_how_to_cite():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"} and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert {"Repository", "Issues", "Documentation"} <= set(project["urls"])
    citation = (ROOT / "CITATION.cff").read_text()
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^version = "(.+)"', cargo, re.MULTILINE).group(1)
    assert "cff-version: 1.2.0" in citation and f"version: {version}\n" in citation
    assert f'repository-code: "{project["urls"]["Repository"]}"' in citation and "license: MIT" in citation


def test_the_readme_states_the_rust_version_the_workspace_declares():
    msrv = re.search(r'^rust-version = "(.+)"', (ROOT / "Cargo.toml").read_text(), re.MULTILINE).group(1)
    for crate in ("rust/engine", "rust/python"):
        assert "rust-version.workspace = true" in (ROOT / crate / "Cargo.toml").read_text()
    assert f"Rust {msrv} or later" in (ROOT / "README.md").read_text()
    assert f"Rust {msrv} or later" in (ROOT / "docs" / "packaging.md").read_text()
