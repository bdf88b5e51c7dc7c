#!/usr/bin/env python3
"""A club deployment on one machine (issue 44 §2, docs/club.md): ``make club`` / ``make club-down``.

    python deploy/club.py up [--state .club] [--port 8080] [--workers 2] [--host NAME]
                             [--tls-cert FILE --tls-key FILE] [--bot-workers ray|N] [--install]
    python deploy/club.py status | down [--purge]
    python deploy/club.py backup FILE | restore FILE

``up`` starts, from Debian's packages and the project's virtual environment, each piece that is
not running yet, and waits until every one answers:

1. PostgreSQL — a cluster of its own in ``STATE/postgres`` (``initdb`` on first start; port 5433
   on 127.0.0.1), database and role ``abstracta`` (a password in ``STATE/secrets.json``, given to
   the workers through ``STATE/pgpass``: no secret on a command line);
2. Redis — ``STATE/redis`` (port 6390 on 127.0.0.1, a password; nothing kept on disk);
3. a Ray head — ``STATE/ray`` (port 6380), the deep bot lane (``--bot-workers ray:…``);
4. N ``abstracta serve`` workers on 127.0.0.1:8101… (JSON log lines in ``STATE/logs``);
5. nginx — ``STATE/nginx``, HTTP on 127.0.0.1:8080 (``--listen 0.0.0.0`` for the network), HTTPS
   on 8443 when given a certificate and key, forwarding to the workers (``least_conn``).

Every setting given is kept in ``STATE/club.json``, so a later ``up`` (or ``down``) without
options uses the same. ``down`` stops what runs, in the reverse order, and keeps the data;
``down --purge`` deletes ``STATE`` too. Both are idempotent. ``--install`` (``make club``) runs
``apt-get install`` for the Debian packages that are missing, as root. ``backup FILE`` is
``abstracta db backup`` of the club's database (while it plays on); ``restore FILE`` stops the
workers, restores (replacing the club's games) and starts them again.

Only the standard library: ``down`` and ``status`` run with any Python 3.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).resolve().parent
#: Debian packages and the commands each brings.
PACKAGES = {"postgresql": "pg_ctlcluster", "redis-server": "redis-server", "nginx": "nginx"}
READY_SECONDS = 180.0


def program(name: str) -> str | None:
    """The path of ``name`` on PATH, or in /usr/sbin (nginx is there; a user's PATH may not be)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


class ClubError(RuntimeError):
    """Something the deployment cannot do; the message says what to do about it."""


@dataclass
class Settings:
    """What ``up`` was asked for; kept in ``STATE/club.json``."""

    port: int = 8080
    listen: str = "127.0.0.1"
    workers: int = 2
    worker_port: int = 8101             # the first worker's; the next ones follow
    pg_port: int = 5433
    redis_port: int = 6390
    ray_port: int = 6380
    host: list[str] = field(default_factory=list)  # DNS names the club is reached by
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_port: int = 8443
    bot_workers: str = "ray"            # ray: the Ray head here; N: local processes per worker
    ray_cpus: int = 2
    rate_limits: bool = True
    venv: str = str(ROOT / ".venv")
    #: another games database than the club's own PostgreSQL (benchmarks/load.py --workers)
    db_url: str | None = None
    #: the workers share Redis (rate limits, fan-out); off: each counts alone (benchmarks)
    redis: bool = True

    def worker_ports(self) -> list[int]:
        return [self.worker_port + i for i in range(self.workers)]


def render(template: str, values: dict[str, object]) -> str:
    """``template`` with each ``{{name}}`` replaced (nginx's own ``$names`` are left alone).
    Raises :class:`ClubError` for a placeholder without a value."""
    out = template
    for name, value in values.items():
        out = out.replace("{{" + name + "}}", str(value))
    if "{{" in out:
        start = out.index("{{")
        raise ClubError(f"template placeholder without a value: {out[start:out.index('}}', start) + 2]}")
    return out


def nginx_conf(state: Path, settings: Settings, as_root: bool | None = None) -> str:
    """nginx.conf for ``settings``, its paths under ``state``."""
    as_root = os.geteuid() == 0 if as_root is None else as_root
    nginx = state / "nginx"
    upstreams = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in settings.worker_ports())
    names = " ".join(settings.host) or "_"
    server = (TEMPLATES / "nginx-server.conf.in").read_text()
    servers = [render(server, {"listen": f"{settings.listen}:{settings.port}", "server_names": names, "tls": ""})]
    if settings.tls_cert and settings.tls_key:
        tls = (f"        ssl_certificate {Path(settings.tls_cert).resolve()};\n"
               f"        ssl_certificate_key {Path(settings.tls_key).resolve()};\n"
               "        ssl_protocols TLSv1.2 TLSv1.3;\n"
               "        ssl_session_cache shared:club:1m;\n")
        servers.append(render(server, {"listen": f"{settings.listen}:{settings.tls_port} ssl", "server_names": names,
                                       "tls": tls}))
    return render((TEMPLATES / "nginx.conf.in").read_text(), {
        "state": state, "nginx": nginx, "upstreams": upstreams, "servers": "\n".join(servers),
        # the master runs as root to bind; its workers run as an unprivileged user
        "user": f"user {_nginx_user()};" if as_root else ""})


def _nginx_user() -> str:
    import pwd

    for name in ("www-data", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return "nobody"


def free_ports(n: int = 1) -> int:
    """The first of ``n`` consecutive free loopback ports (for a deployment beside others:
    tests, benchmarks)."""
    import random

    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(20000, 40000)
        taken = []
        try:
            for port in range(base, base + n):
                s = socket.socket()
                taken.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in taken:
                s.close()
    raise ClubError("no free ports")


def _alive(pid: int | None) -> bool:
    """Whether process ``pid`` runs (a zombie, exited but not yet reaped, does not)."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _wait(what: str, check, seconds: float = READY_SECONDS, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    tail = ""
    if log is not None and log.exists():
        tail = "\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:])
    raise ClubError(f"{what} is not ready after {seconds:g} s{tail}")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop_group(pid: int | None, seconds: float = 20.0) -> None:
    """SIGTERM the process group ``pid`` leads (started with a session of its own), then
    SIGKILL what is left after ``seconds``."""
    if not _alive(pid):
        return
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _group_alive(pid):
            return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie leader we started is reaped here (it is our child when started in this process)
    try:
        os.waitpid(pgid, os.WNOHANG)
    except ChildProcessError:
        pass
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


class Club:
    """The deployment whose state is ``state``."""

    def __init__(self, state: Path | str, settings: Settings | None = None, out=sys.stdout):
        self.state = Path(state).resolve()
        self.out = out
        saved = self.state / "club.json"
        if settings is None:
            settings = Settings(**json.loads(saved.read_text())) if saved.exists() else Settings()
        self.settings = settings
        self.as_root = os.geteuid() == 0
        #: the cluster's superuser: the operating system's user that runs it (peer authentication)
        self.pg_super = "postgres" if self.as_root else _user()

    # --- paths and secrets ------------------------------------------------------------------------
    @property
    def bin(self) -> Path:
        return Path(self.settings.venv) / "bin"

    def say(self, text: str) -> None:
        print(f"club: {text}", file=self.out, flush=True)

    def secrets(self) -> dict[str, str]:
        path = self.state / "secrets.json"
        if path.exists():
            return json.loads(path.read_text())
        values = {"pg_password": secrets.token_urlsafe(24), "redis_password": secrets.token_urlsafe(24)}
        path.touch(mode=0o600)
        path.write_text(json.dumps(values))
        return values

    def db_url(self) -> str:
        """The workers' database URL (the club's own: its password is in ``STATE/pgpass``,
        PGPASSFILE)."""
        if self.settings.db_url:
            return self.settings.db_url
        return f"postgresql+psycopg://abstracta@127.0.0.1:{self.settings.pg_port}/abstracta"

    def redis_url(self) -> str:
        return f"redis://:{self.secrets()['redis_password']}@127.0.0.1:{self.settings.redis_port}/0"

    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    def worker_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.settings.worker_ports()]

    def ray_env(self) -> dict[str, str]:
        """What the Ray head and its drivers (the workers) share: the cluster's token (Ray 2.59
        turns token authentication on; ours is ``STATE/ray-token``, not the user's
        ``~/.ray/auth_token``), and the loopback address (Ray otherwise advertises this
        machine's network address even when told 127.0.0.1)."""
        token = self.state / "ray-token"
        if not token.exists():
            token.touch(mode=0o600)
            token.write_text(secrets.token_hex(32))
        return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token),
                "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}

    def worker_env(self) -> dict[str, str]:
        """The environment of a worker (and of anything else that talks to the database)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "ABSTRACTA_RATE_LIMITS": "on" if self.settings.rate_limits else "off"}
        if not self.settings.db_url:
            env["PGPASSFILE"] = str(self.state / "pgpass")
        if self.settings.redis:
            env["ABSTRACTA_REDIS_URL"] = self.redis_url()
        if self.settings.bot_workers == "ray":
            env.update(self.ray_env())
        return env

    # --- up / down ----------------------------------------------------------------------------------
    def up(self, install: bool = False) -> None:
        self.check_tools(install)
        self.state.mkdir(parents=True, exist_ok=True)
        if self.as_root:  # the database's own user must reach its folder
            self.state.chmod(0o755)
        (self.state / "logs").mkdir(exist_ok=True)
        (self.state / "run").mkdir(exist_ok=True)
        (self.state / "club.json").write_text(json.dumps(asdict(self.settings), indent=2) + "\n")
        self.secrets()
        started = time.monotonic()
        if not self.settings.db_url:
            self.postgres_up()
        if self.settings.redis:
            self.redis_up()
        if self.settings.bot_workers == "ray":
            self.ray_up()
        self.workers_up()
        self.nginx_up()
        self.say(f"ready in {time.monotonic() - started:.1f} s: open {self.base_url()}/"
                 + (f" (HTTPS on port {self.settings.tls_port})" if self.settings.tls_cert else ""))

    def down(self, purge: bool = False) -> None:
        self.nginx_down()
        self.workers_down()
        self.ray_down()
        self.redis_down()
        self.postgres_down()
        if purge and self.state.exists():
            shutil.rmtree(self.state)
            self.say(f"deleted {self.state}")

    def db(self, *args: str) -> None:
        """``abstracta db ARGS --db <the club's database>`` (ClubError if it fails)."""
        done = subprocess.run([str(self.bin / "abstracta"), "db", *args, "--db", self.db_url()],
                              env=self.worker_env(), text=True, capture_output=True)
        if done.returncode != 0:
            raise ClubError((done.stderr or done.stdout).strip())
        self.say(done.stdout.strip())

    def restore(self, path: str) -> None:
        """Stop the workers, restore ``path`` over the club's games, start the workers again."""
        if not self._pg_running() and not self.settings.db_url:
            raise ClubError("the club's PostgreSQL is not running (make club)")
        self.nginx_down()  # nobody reaches a half-restored club meanwhile
        self.workers_down()
        self.db("restore", str(Path(path).resolve()), "--replace")
        self.workers_up()
        self.nginx_up()

    def status(self) -> dict[str, bool]:
        s = self.settings
        found = {"postgresql": self._pg_running(), "redis": _alive(_read_pid(self.state / "redis" / "redis.pid")),
                 "ray": _alive(_read_pid(self.state / "run" / "ray.pid")) if s.bot_workers == "ray" else None,
                 "nginx": _alive(_read_pid(self.state / "nginx" / "nginx.pid"))}
        for i, port in enumerate(s.worker_ports(), 1):
            found[f"worker {i} (:{port})"] = _alive(_read_pid(self.state / "run" / f"worker-{i}.pid"))
        return found

    def check_tools(self, install: bool) -> None:
        missing = [pkg for pkg, cmd in PACKAGES.items() if program(cmd) is None]
        if missing:
            if not install or not self.as_root:
                raise ClubError(f"missing Debian packages: {' '.join(missing)} "
                                f"(sudo apt-get install {' '.join(missing)}; make club does it as root)")
            self.say(f"apt-get install {' '.join(missing)}")
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
            subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, stdout=subprocess.DEVNULL)
        if not (self.bin / "abstracta").exists():
            raise ClubError(f"no abstracta in {self.bin} (make venv)")
        if self.settings.bot_workers == "ray" and not (self.bin / "ray").exists():
            raise ClubError(f"no ray in {self.bin} (pip install -e '.[ray]')")

    # --- PostgreSQL ----------------------------------------------------------------------------------
    def _pg_bin(self, name: str) -> str:
        versions = sorted((p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / name).exists()),
                          key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
        if not versions:
            found = shutil.which(name)
            if found is None:
                raise ClubError(f"no {name}: apt-get install postgresql")
            return found
        return str(versions[-1] / name)

    def _as_pg(self, args: list[str], **kwargs) -> subprocess.CompletedProcess:
        """Run ``args`` as the database's own user (postgres, when root: PostgreSQL refuses root)."""
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        return subprocess.run(prefix + args, **kwargs)

    def _pg_running(self) -> bool:
        data = self.state / "postgres" / "data"
        if not (data / "PG_VERSION").exists():
            return False
        return self._as_pg([self._pg_bin("pg_ctl"), "status", "-D", str(data)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL).returncode == 0

    def postgres_up(self) -> None:
        s, pg = self.settings, self.state / "postgres"
        data, run = pg / "data", pg / "run"
        pg.mkdir(exist_ok=True)
        run.mkdir(exist_ok=True)
        if self.as_root:
            shutil.chown(pg, "postgres", "postgres")
            shutil.chown(run, "postgres", "postgres")
            pg.chmod(0o700)
        if self.as_root and self._as_pg(["test", "-w", str(pg)]).returncode != 0:
            raise ClubError(f"PostgreSQL's user (postgres) cannot reach {pg}: a folder above it is private; "
                            "give the club a state folder it can reach (make club CLUB=/srv/abstracta-club)")
        if not (data / "PG_VERSION").exists():
            self.say("initdb (the games database's cluster)")
            # local socket connections (a folder only postgres reaches) as the user's own role;
            # TCP with a password
            self._as_pg([self._pg_bin("initdb"), "-D", str(data), "-U", self.pg_super, "--auth-local=peer",
                         "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8"],
                        check=True, stdout=subprocess.DEVNULL)
            with open(data / "postgresql.conf", "a") as conf:
                conf.write("\ninclude_if_exists = 'club.conf'\n")
        club_conf = render((TEMPLATES / "postgresql.conf.in").read_text(), {"port": s.pg_port, "run": run})
        (data / "club.conf").write_text(club_conf)
        if self.as_root:
            shutil.chown(data / "club.conf", "postgres", "postgres")
        if self._pg_running():
            self.say("PostgreSQL is running")
        else:
            self.say(f"PostgreSQL on 127.0.0.1:{s.pg_port}")
            self._as_pg([self._pg_bin("pg_ctl"), "start", "-D", str(data), "-l", str(pg / "postgresql.log"),
                         "-w", "-t", "60"], check=True, stdout=subprocess.DEVNULL)
        _wait("PostgreSQL", lambda: subprocess.run(
            [self._pg_bin("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(s.pg_port)]).returncode == 0,
            log=pg / "postgresql.log")
        password = self.secrets()["pg_password"]
        # the role and the database (again each time: idempotent, and the password is the file's)
        sql = (f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'abstracta') THEN "
               f"CREATE ROLE abstracta LOGIN; END IF; END $$;\n"
               f"ALTER ROLE abstracta PASSWORD '{password}';\n")
        self._psql(sql)
        exists = self._psql("SELECT 1 FROM pg_database WHERE datname = 'abstracta'", quiet=False).strip()
        if exists != "1":
            self._psql("CREATE DATABASE abstracta OWNER abstracta")
        pgpass = self.state / "pgpass"
        pgpass.touch(mode=0o600)
        pgpass.write_text(f"127.0.0.1:{s.pg_port}:*:abstracta:{password}\n")
        pgpass.chmod(0o600)

    def _psql(self, sql: str, quiet: bool = True) -> str:
        run = self.state / "postgres" / "run"
        done = self._as_pg([self._pg_bin("psql"), "-h", str(run), "-p", str(self.settings.pg_port), "-U", self.pg_super,
                            "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt", "-f", "-"],
                           input=sql, text=True, capture_output=True)
        if done.returncode != 0:
            raise ClubError(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def postgres_down(self) -> None:
        if self._pg_running():
            self.say("stopping PostgreSQL")
            self._as_pg([self._pg_bin("pg_ctl"), "stop", "-D", str(self.state / "postgres" / "data"), "-m", "fast",
                         "-w", "-t", "60"], stdout=subprocess.DEVNULL)

    # --- Redis ---------------------------------------------------------------------------------------
    def redis_up(self) -> None:
        s, folder = self.settings, self.state / "redis"
        folder.mkdir(exist_ok=True)
        conf = folder / "redis.conf"
        conf.touch(mode=0o600)
        conf.write_text(render((TEMPLATES / "redis.conf.in").read_text(), {
            "port": s.redis_port, "password": self.secrets()["redis_password"], "redis": folder}))
        if _alive(_read_pid(folder / "redis.pid")):
            self.say("Redis is running")
        else:
            self.say(f"Redis on 127.0.0.1:{s.redis_port}")
            subprocess.run([program("redis-server") or "redis-server", str(conf)], check=True, stdout=subprocess.DEVNULL)
        _wait("Redis", self._redis_ping, log=folder / "redis.log")

    def _redis_ping(self) -> bool:
        """A PING with the password, in Redis' protocol (no client needed)."""
        password = self.secrets()["redis_password"].encode()
        try:
            with socket.create_connection(("127.0.0.1", self.settings.redis_port), timeout=1) as sock:
                sock.sendall(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n*1\r\n$4\r\nPING\r\n" % (len(password), password))
                answer = b""
                while answer.count(b"\r\n") < 2:
                    chunk = sock.recv(100)
                    if not chunk:
                        break
                    answer += chunk
                return answer.startswith(b"+OK\r\n+PONG")
        except OSError:
            return False

    def redis_down(self) -> None:
        pid = _read_pid(self.state / "redis" / "redis.pid")
        if _alive(pid):
            self.say("stopping Redis")
            os.kill(pid, signal.SIGTERM)
            _wait("Redis to stop", lambda: not _alive(pid), 30)

    # --- Ray -----------------------------------------------------------------------------------------
    def _spawn(self, args: list[str], log: Path, pid_file: Path, env: dict[str, str] | None = None) -> int:
        """Start ``args`` in a session of its own (its process group is what ``down`` stops)."""
        with open(log, "ab") as out:
            proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    env=env, cwd=self.state, start_new_session=True)
        pid_file.write_text(f"{proc.pid}\n")
        return proc.pid

    def ray_up(self) -> None:
        s = self.settings
        pid_file = self.state / "run" / "ray.pid"
        if _alive(_read_pid(pid_file)):
            self.say("Ray head is running")
        else:
            self.say(f"Ray head on 127.0.0.1:{s.ray_port} ({s.ray_cpus} CPUs)")
            temp = self.state / "ray"
            temp.mkdir(exist_ok=True)
            self._spawn([str(self.bin / "ray"), "start", "--head", "--block", f"--port={s.ray_port}",
                         "--node-ip-address=127.0.0.1", f"--num-cpus={s.ray_cpus}", "--include-dashboard=false",
                         "--disable-usage-stats", f"--temp-dir={temp}", "--object-store-memory=200000000"],
                        self.state / "logs" / "ray.log", pid_file, env={**os.environ, **self.ray_env()})
        _wait("the Ray head", lambda: _port_open(s.ray_port), log=self.state / "logs" / "ray.log")

    def ray_down(self) -> None:
        pid = _read_pid(self.state / "run" / "ray.pid")
        if _alive(pid):
            self.say("stopping the Ray head")
            _stop_group(pid, 30)
        # Ray's own daemons start sessions of their own: those whose command line names this
        # deployment's folder are ours
        temp = str(self.state / "ray")
        left = [p for p in _pids_naming(temp) if p != os.getpid()]
        for pid in left:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 15
        while left and time.monotonic() < deadline:
            left = [p for p in left if _alive(p) and not _zombie(p)]
            time.sleep(0.2)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    # --- the workers -------------------------------------------------------------------------------
    def workers_up(self) -> None:
        """Start the workers not running and wait until each is ready. The first one alone
        first: on an empty database it creates the tables, which two processes at once would
        both try (PostgreSQL refuses the second: duplicate key in pg_type)."""
        s = self.settings
        bots = f"ray:127.0.0.1:{s.ray_port}" if s.bot_workers == "ray" else s.bot_workers
        for i, port in enumerate(s.worker_ports(), 1):
            pid_file = self.state / "run" / f"worker-{i}.pid"
            if _alive(_read_pid(pid_file)):
                self.say(f"worker {i} is running")
                continue
            if i == 2:
                self._worker_ready(1)
            args = [str(self.bin / "abstracta"), "serve", "--host", "127.0.0.1", "--port", str(port),
                    "--db", self.db_url(), "--bot-workers", bots, "--log-format", "json"]
            for name in s.host:
                args += ["--allowed-host", name]
            if not s.rate_limits:
                args.append("--no-rate-limits")
            self.say(f"worker {i} on 127.0.0.1:{port}")
            self._spawn(args, self.state / "logs" / f"worker-{i}.log", pid_file, env=self.worker_env())
        for i in range(1, s.workers + 1):
            self._worker_ready(i)

    def _worker_ready(self, i: int) -> None:
        """Wait until worker ``i`` answers /readyz (ClubError: it exited, or took too long)."""
        url = self.worker_urls()[i - 1]
        pid = _read_pid(self.state / "run" / f"worker-{i}.pid")
        log = self.state / "logs" / f"worker-{i}.log"

        def ready() -> bool:
            if not _alive(pid):
                raise ClubError(f"worker {i} exited:\n" + _tail(log))
            return _http_ok(url + "/readyz")

        _wait(f"worker {i}", ready, log=log)

    def workers_down(self) -> None:
        for pid_file in sorted((self.state / "run").glob("worker-*.pid")) if (self.state / "run").exists() else []:
            pid = _read_pid(pid_file)
            if _alive(pid):
                self.say(f"stopping {pid_file.stem}")
                _stop_group(pid)
            pid_file.unlink(missing_ok=True)

    # --- nginx ---------------------------------------------------------------------------------------
    def _nginx(self, *args: str) -> subprocess.CompletedProcess:
        folder = self.state / "nginx"
        return subprocess.run([program("nginx") or "nginx", "-p", str(folder), "-e", str(folder / "error.log"),
                               "-c", str(folder / "nginx.conf"), *args], capture_output=True, text=True)

    def nginx_up(self) -> None:
        s, folder = self.settings, self.state / "nginx"
        for sub in ("tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
            if self.as_root:
                shutil.chown(folder / sub, _nginx_user())
        (folder / "nginx.conf").write_text(nginx_conf(self.state, s, self.as_root))
        checked = self._nginx("-t", "-q")
        if checked.returncode != 0:
            raise ClubError(f"nginx refuses its configuration:\n{checked.stderr.strip()}")
        if _alive(_read_pid(folder / "nginx.pid")):
            self.say("nginx is running (configuration reloaded)")
            self._nginx("-s", "reload")
        else:
            self.say(f"nginx on {s.listen}:{s.port}" + (f" and {s.listen}:{s.tls_port} (TLS)" if s.tls_cert else ""))
            started = self._nginx()
            if started.returncode != 0:
                raise ClubError(f"nginx did not start:\n{started.stderr.strip()}")
        _wait("nginx", lambda: _http_ok(self.base_url() + "/readyz"), log=folder / "error.log")

    def nginx_down(self) -> None:
        pid = _read_pid(self.state / "nginx" / "nginx.pid")
        if _alive(pid):
            self.say("stopping nginx")
            os.kill(pid, signal.SIGQUIT)  # graceful: open WebSockets are closed as the workers stop
            deadline = time.monotonic() + 10
            while _alive(pid) and not _zombie(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid) and not _zombie(pid):
                os.kill(pid, signal.SIGTERM)


def _user() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _pids_naming(text: str) -> list[int]:
    """Processes whose command line contains ``text``."""
    found = []
    needle = text.encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["up", "down", "status", "backup", "restore"])
    parser.add_argument("file", nargs="?", help="backup, restore: the backup file")
    parser.add_argument("--state", default=str(ROOT / ".club"), help="the deployment's folder (default .club)")
    parser.add_argument("--port", type=int, help="nginx's HTTP port (default 8080)")
    parser.add_argument("--listen", help="nginx's address (default 127.0.0.1; 0.0.0.0: the network)")
    parser.add_argument("--workers", type=int, help="abstracta serve processes (default 2)")
    parser.add_argument("--host", action="append", help="a DNS name of the club (repeatable): nginx's server_name "
                                                        "and the workers' --allowed-host")
    parser.add_argument("--tls-cert", help="a certificate (PEM) for HTTPS")
    parser.add_argument("--tls-key", help="its private key (PEM)")
    parser.add_argument("--tls-port", type=int, help="HTTPS port (default 8443)")
    parser.add_argument("--bot-workers", help="ray (the Ray head started here, default) or N processes per worker")
    parser.add_argument("--no-rate-limits", action="store_true", help="for load benchmarks from one address")
    parser.add_argument("--install", action="store_true", help="apt-get install the missing Debian packages (root)")
    parser.add_argument("--purge", action="store_true", help="down: delete the state folder too")
    args = parser.parse_args(argv)
    club = Club(args.state)
    s = club.settings
    for name in ("port", "listen", "workers", "tls_cert", "tls_key", "tls_port", "bot_workers", "host"):
        value = getattr(args, name)
        if value is not None:
            setattr(s, name, value)
    if args.no_rate_limits:
        s.rate_limits = False
    if bool(s.tls_cert) != bool(s.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if s.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        if args.command == "up":
            try:
                club.up(install=args.install)
            except BaseException:
                club.say("not started: stopping what was (make club-down keeps the data)")
                club.down()
                raise
        elif args.command == "down":
            club.down(purge=args.purge)
        elif args.command in ("backup", "restore"):
            if not args.file:
                parser.error(f"{args.command} needs a FILE")
            if args.command == "backup":
                club.db("backup", str(Path(args.file).resolve()))
            else:
                club.restore(args.file)
        else:
            for name, running in club.status().items():
                if running is not None:
                    print(f"{name:<24}{'running' if running else 'stopped'}")
    except ClubError as exc:
        print(f"club: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
