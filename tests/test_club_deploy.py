"""deploy/club.py's configuration (issue 44 §2) and docs/club.md's generated figures (§5, §6)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from services import ROOT, club_module


def test_nginx_configuration(tmp_path: Path):
    club = club_module()
    settings = club.Settings(port=8080, workers=3, worker_port=9001, host=["games.club.example"])
    conf = club.nginx_conf(tmp_path, settings, as_root=True)
    assert "listen 127.0.0.1:8080;" in conf and "ssl" not in conf.replace("ssl_", "")
    assert [line.strip() for line in conf.splitlines() if line.strip().startswith("server 127.0.0.1:")] == [
        "server 127.0.0.1:9001 max_fails=1 fail_timeout=5s;", "server 127.0.0.1:9002 max_fails=1 fail_timeout=5s;",
        "server 127.0.0.1:9003 max_fails=1 fail_timeout=5s;"]
    assert "server_name games.club.example;" in conf and "least_conn;" in conf
    assert "client_max_body_size 2m;" in conf and "client_header_timeout 10s;" in conf
    assert "proxy_set_header Host $http_host;" in conf  # with its port: the WebSocket Origin check
    assert f"pid {tmp_path}/nginx/nginx.pid;" in conf and conf.splitlines()[3].startswith("user ")
    assert "{{" not in conf
    tls = club.nginx_conf(tmp_path, club.Settings(tls_cert="/c.pem", tls_key="/k.pem", tls_port=8443), as_root=False)
    assert "listen 127.0.0.1:8443 ssl;" in tls and "ssl_certificate /c.pem;" in tls
    assert "listen 127.0.0.1:8080;" in tls  # HTTP too
    assert not any(line.startswith("user ") for line in tls.splitlines())


def test_templates_name_every_placeholder():
    club = club_module()
    with pytest.raises(club.ClubError, match="placeholder without a value: {{port}}"):
        club.render("listen {{port}};", {})
    assert club.render("$host {{a}}", {"a": 1}) == "$host 1"


def test_settings_survive_in_the_state_folder(tmp_path: Path):
    club = club_module()
    deployment = club.Club(tmp_path, club.Settings(workers=3, host=["a.example"]))
    (tmp_path / "club.json").write_text(json.dumps(dataclasses.asdict(deployment.settings)))
    again = club.Club(tmp_path)
    assert again.settings.workers == 3 and again.settings.host == ["a.example"]
    assert again.worker_urls() == ["http://127.0.0.1:8101", "http://127.0.0.1:8102", "http://127.0.0.1:8103"]
    # nothing runs there: status says so, down stops nothing and fails on nothing
    assert not any(v for v in again.status().values() if v is not None)
    again.down()


def test_club_command_refuses_half_a_certificate(tmp_path: Path):
    done = subprocess.run([sys.executable, str(ROOT / "deploy" / "club.py"), "up", "--state", str(tmp_path),
                           "--tls-cert", "c.pem"], capture_output=True, text=True)
    assert done.returncode == 2 and "--tls-cert and --tls-key go together" in done.stderr


def test_the_club_page_figures_are_the_benchmarks_json():
    """docs/club.md's generated blocks are what benchmarks/results/ gives (run
    benchmarks/club_docs.py after a new measurement)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "club_docs.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
