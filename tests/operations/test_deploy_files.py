"""The service unit, the container recipe and the licence are checked as files (no docker or systemd needed)."""

from __future__ import annotations

import configparser
import fnmatch
import json
import re
import shlex
import tomllib
from pathlib import PurePosixPath

from tests.bot.harness import ROOT

UNIT = ROOT / "deploy" / "viceroy-gm.service"


SHARD_UNIT = ROOT / "deploy" / "viceroy-gm@.service"


def _unit(path=UNIT) -> configparser.RawConfigParser:
    # systemd allows repeated keys (Environment=); collect them as multi-values.
    parser = configparser.RawConfigParser(strict=False, dict_type=_MultiDict, interpolation=None,
                                          comment_prefixes=("#", ";"), empty_lines_in_values=False)
    parser.optionxform = str  # keys are case-sensitive in systemd
    parser.read_string(path.read_text())
    return parser


class _MultiDict(dict):
    def __setitem__(self, key, value):
        if isinstance(value, list) and key in self and isinstance(self[key], list):
            self[key].extend(value)
        else:
            super().__setitem__(key, value)


def _values(unit: configparser.RawConfigParser, section: str, key: str) -> list[str]:
    raw = unit.get(section, key, raw=True)
    return [v for v in raw.split("\n") if v]


def test_unit_file_has_the_sections_and_runs_the_bot_module():
    unit = _unit()
    assert unit.sections() == ["Unit", "Service", "Install"]
    assert "network-online.target" in unit.get("Unit", "After")
    service = dict(unit.items("Service"))
    assert service["Type"] == "simple"
    workdir = service["WorkingDirectory"]
    assert workdir.startswith("/")
    argv = shlex.split(service["ExecStart"])
    assert argv[0] == f"{workdir}/.venv/bin/python" and argv[1:] == ["-m", "bot"]
    assert service["User"] and service["User"] != "root"
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM" and int(service["TimeoutStopSec"]) >= 10
    assert unit.get("Install", "WantedBy") == "multi-user.target"


def test_unit_keeps_the_database_in_its_state_directory():
    unit = _unit()
    state = unit.get("Service", "StateDirectory")
    env = dict(v.split("=", 1) for v in _values(unit, "Service", "Environment"))
    db = PurePosixPath(env["VICEROY_DB"])
    assert db.parent == PurePosixPath("/var/lib") / state
    assert unit.get("Service", "ProtectSystem") == "strict"  # only the state directory is writable


def test_shard_template_runs_one_process_per_shard_range():
    from bot.config import load_settings

    unit = _unit(SHARD_UNIT)
    assert unit.sections() == ["Unit", "Service", "Install"]
    single = dict(_unit().items("Service"))
    service = dict(unit.items("Service"))
    assert service["ExecStart"] == single["ExecStart"] and service["User"] == single["User"]
    env = dict(v.split("=", 1) for v in _values(unit, "Service", "Environment"))
    assert env["VICEROY_SHARD_IDS"] == "%i"  # the instance name: viceroy-gm@0-3
    assert "VICEROY_DB" not in env  # PostgreSQL, from .env: a SQLite file cannot be shared by the processes
    assert service["Restart"] == "on-failure" and "%i" in unit.get("Unit", "Description")
    # What the instance names in the unit's comment mean, read as the bot reads them.
    settings = load_settings({"VICEROY_SHARDS": "8", "VICEROY_SHARD_IDS": "4-7",
                              "VICEROY_DB": "postgresql://viceroy@db/viceroy"}, dotenv=False)
    assert settings.shard_ids == (4, 5, 6, 7)
    assert "viceroy-gm@0-3 viceroy-gm@4-7" in SHARD_UNIT.read_text()


def test_unit_stops_retrying_a_start_that_always_fails():
    unit = _unit()
    assert int(unit.get("Unit", "StartLimitBurst")) >= 1
    assert int(unit.get("Unit", "StartLimitIntervalSec")) > int(unit.get("Service", "RestartSec"))


def _dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    lines, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        lines.append(current)
        current = ""
    assert not current, "Dockerfile ends with a continuation"
    out = []
    for line in lines:
        instr, _, args = line.partition(" ")
        out.append((instr.upper(), args.strip()))
    return out


def _dockerignore() -> list[str]:
    return [ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]


def _ignored(path: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(path, p.rstrip("/")) or fnmatch.fnmatch(path.split("/")[0], p.rstrip("/"))
               for p in patterns)


def test_dockerfile_instructions_are_known_and_copy_existing_paths():
    known = {"FROM", "WORKDIR", "COPY", "RUN", "ENV", "USER", "VOLUME", "STOPSIGNAL", "CMD", "ARG", "LABEL"}
    steps = _dockerfile()
    assert {i for i, _ in steps} <= known
    ignore = _dockerignore()
    copied = set()
    for instr, args in steps:
        if instr != "COPY" or args.startswith("--from"):
            continue
        *sources, _dest = args.split()
        for src in sources:
            assert (ROOT / src).exists(), f"COPY {src}: no such path in the repository"
            assert not _ignored(src, ignore), f"COPY {src}: excluded by .dockerignore"
            copied.add(src)
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    for pattern in packages["include"]:
        top = pattern.rstrip("*")
        assert top in copied, f"package {top} is not copied into the image"
    assert {"pyproject.toml", "README.md", "LICENSE"} <= copied


def test_dockerfile_python_is_supported_and_the_database_is_a_volume():
    steps = _dockerfile()
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    floor = tuple(int(x) for x in re.search(r">=\s*(\d+)\.(\d+)", requires).groups())
    for instr, args in steps:
        if instr == "FROM":
            version = tuple(int(x) for x in re.search(r"python:(\d+)\.(\d+)", args).groups())
            assert version >= floor
    env: dict[str, str] = {}
    for instr, args in steps:
        if instr == "ENV":
            env.update(dict(tok.split("=", 1) for tok in shlex.split(args)))
    volumes = [v for instr, args in steps if instr == "VOLUME" for v in json.loads(args)]
    assert str(PurePosixPath(env["VICEROY_DB"]).parent) in volumes
    assert str(PurePosixPath(env["VICEROY_DEMO_DIR"]).parent) in volumes
    final = steps[max(i for i, (instr, _) in enumerate(steps) if instr == "FROM"):]
    assert ("USER", "viceroy") in final
    assert final[-1] == ("CMD", '["python", "-m", "bot"]')
    assert ("STOPSIGNAL", "SIGTERM") in final


def test_dockerignore_keeps_secrets_and_databases_out():
    ignore = _dockerignore()
    for path in (".env", ".git", "var/viceroy.db", "x.db-wal", ".venv", "viceroy.db.lock"):
        assert _ignored(path, ignore), path


def test_license_is_mit_and_declared_in_spdx_form():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) 2026 The Viceroy GM developers\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
