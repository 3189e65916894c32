"""`make serve` (or `python -m referee.serve`): the site for a club day, on every tablet of the hall's network.

Runs without DEBUG: the SECRET_KEY from the environment or from `.secret_key` (generated on the first run),
migrate and collectstatic, then a multi-threaded WSGI server — gunicorn where it runs (Linux, macOS), waitress
elsewhere (Windows). It prints the addresses the tablets open; finding them sends nothing on the network. The
first is the hall's address the QR codes carry (PUBLIC_URL, unless set: a proxy's public address, say). With
CERT_FILE and KEY_FILE (a certificate the club's devices trust) gunicorn serves HTTPS, so the judge's page also
reloads without the network.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import secrets
import socket
import struct
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
KEY_FILE = BASE_DIR / ".secret_key"
# Two cores: two processes (one can use each core) of eight threads each — most of a request is waiting on
# SQLite or the network, and sixteen at once covers a hall of tablets refreshing the standings. A tablet keeps
# its connection, so its plays reach the process that saved its last one (which keeps that deal's turn). Under
# `make load` (64 judges, closed loop, SQLite, the write gate) 2×8 gave 192–197 plays/s against 149–179 for 4×4,
# 148–155 for 3×4 and 150–177 for 6 single-threaded processes, back to back on the same machine.
WORKERS = 2
THREADS = 8
# Seconds an idle kept-alive connection stays open: longer than a spectator's poll (5 s) and a judge's pause
# between plays, so a phone polling the standings reuses its connection instead of connecting anew each time
# (gunicorn's default, 2 s, closed every poll's connection; a new one waited up to 2 s beside 64 judges). The
# gthread worker holds an idle connection in its poller, not in a thread, so 200 of them cost no thread.
KEEPALIVE = 75
SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on, for a server started next on this machine (`make hall`'s, the load test's, a
    test's). Chosen below the kernel's range for outgoing connections: a port the kernel hands out for a probe is
    handed to the next client connection just as well, and a server binding it moments later found it taken (seen
    under a loaded test run: gunicorn's "Connection in use")."""
    low = 10_000
    try:
        high = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        high = 32_768
    while True:
        port = secrets.randbelow(max(high - low, 1)) + low
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port


def ensure_secret_key(path: Path = KEY_FILE) -> str:
    """SECRET_KEY from the environment, else from ``path``, else a new one written there (mode 600)."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if path.exists():
        key = path.read_text(encoding="utf-8").strip()
        print(f"SECRET_KEY read from {path}")
    else:
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(key + "\n")
        print(
            f"SECRET_KEY was not set: generated one into {path} (mode 600). Keep that file: the log-ins depend on it."
        )
    os.environ["SECRET_KEY"] = key
    return key


def usable(address: str) -> bool:
    """An address a tablet can reach: not loopback, link-local or unspecified."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def interface_addresses() -> set[str]:
    """The IPv4 address of each network interface (Linux), asked of the kernel: nothing is sent."""
    try:
        import fcntl
    except ImportError:  # Windows: the host name's addresses are enough there
        return set()
    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # an interface without an IPv4 address
                continue
            found.add(socket.inet_ntoa(answer[20:24]))
    return found


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the hall's network, from its host name and its interfaces."""
    found: set[str] = set()
    try:
        for *_rest, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(sockaddr[0]))
    except OSError:
        pass
    found |= interface_addresses()
    return sorted((a for a in found if usable(a)), key=ipaddress.ip_address)


def ensure_allowed_hosts(addresses: list[str]) -> None:
    """ALLOWED_HOSTS, when not set: this machine by name and by each address, so every tablet is answered."""
    if os.environ.get("ALLOWED_HOSTS", "").strip():
        return
    hostname = socket.gethostname()
    hosts = ["127.0.0.1", "localhost", "[::1]", hostname, f"{hostname}.local", *addresses]
    os.environ["ALLOWED_HOSTS"] = ",".join(hosts)
    print(f"ALLOWED_HOSTS was not set: using {os.environ['ALLOWED_HOSTS']}")


def tls_files() -> tuple[str, str] | None:
    """CERT_FILE and KEY_FILE, both set and readable (HTTPS), or neither (plain HTTP); anything else stops."""
    cert, key = os.environ.get("CERT_FILE", "").strip(), os.environ.get("KEY_FILE", "").strip()
    if not cert and not key:
        return None
    for name, path in (("CERT_FILE", cert), ("KEY_FILE", key)):
        if not path or not Path(path).is_file():
            sys.exit(f"{name}: set CERT_FILE and KEY_FILE to a certificate and its key (files), got {path!r}")
    if not gunicorn_runs():
        sys.exit("CERT_FILE/KEY_FILE: HTTPS needs gunicorn (Linux, macOS); elsewhere put a proxy in front.")
    return cert, key


def ensure_public_url(addresses: list[str], port: str, scheme: str) -> None:
    """PUBLIC_URL, when not set: the hall's first address, so a card printed at the desk on this machine
    (127.0.0.1) still opens on the phones."""
    if os.environ.get("PUBLIC_URL", "").strip() or not addresses:
        return
    os.environ["PUBLIC_URL"] = f"{scheme}://{addresses[0]}:{port}"
    print(f"PUBLIC_URL was not set: the QR codes carry {os.environ['PUBLIC_URL']}")


def gunicorn_runs() -> bool:
    return os.name != "nt" and importlib.util.find_spec("gunicorn") is not None


def prepare(env: dict[str, str] | None = None) -> int:
    """migrate, then collectstatic (``referee.prepare``: one Python for both), in a child process with ``env``
    (default: this one's); its exit status. When a step fails, its own message (one line for bad configuration)
    is the last word."""
    return subprocess.run([sys.executable, "-m", "referee.prepare"], cwd=BASE_DIR, env=env).returncode


def gunicorn_argv(bind: str, tls: tuple[str, str] | None = None) -> list[str]:
    """gunicorn's command line for ``make serve`` (HTTPS with ``tls``, the certificate and key files)."""
    https = [f"--certfile={tls[0]}", f"--keyfile={tls[1]}"] if tls else []
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "referee.wsgi:application",
        "--worker-class=gthread",
        f"--workers={WORKERS}",
        f"--threads={THREADS}",
        f"--keep-alive={KEEPALIVE}",
        f"--bind={bind}",
        "--access-logfile=-",
        "--logger-class=referee.access_log.TokenHidingLogger",  # no table token in the log
        *https,
    ]


def start_backup_timer() -> subprocess.Popen | None:
    """The backup timer (``referee.backup_timer``), a child that ends with this process — which becomes gunicorn
    — every BACKUP_EVERY (0: none); and a backup after each round published (BACKUP_AFTER_ROUND, unless set)."""
    from referee.config import BACKUP_EVERY_DEFAULT, ConfigError, backup_dir, database, env_seconds

    os.environ.setdefault("BACKUP_AFTER_ROUND", "1")
    try:
        every = env_seconds("BACKUP_EVERY", BACKUP_EVERY_DEFAULT)
        where = backup_dir(BASE_DIR, database(BASE_DIR))
    except ConfigError as exc:
        sys.exit(str(exc))
    if not every:
        print(
            "BACKUP_EVERY=0: no backup every few minutes (the desk's button and each round's still take one)."
        )
        return None
    print(f"A backup every {every} s into {where} while the server runs (BACKUP_EVERY, BACKUP_DIR).")
    return subprocess.Popen(
        [sys.executable, "-m", "referee.backup_timer", "--parent", str(os.getpid()), "--every", str(every)],
        cwd=BASE_DIR,
    )


def serve(bind: str, tls: tuple[str, str] | None = None) -> None:
    """Replace this process with the server (gunicorn, HTTPS with ``tls``) or run it here (waitress) until
    Ctrl-C."""
    if gunicorn_runs():
        os.execv(sys.executable, gunicorn_argv(bind, tls))
        return  # only where execv is faked
    from waitress import serve as waitress_serve

    from referee.wsgi import application

    waitress_serve(application, listen=bind, threads=WORKERS * THREADS, channel_timeout=KEEPALIVE)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.serve", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bind", default="0.0.0.0:8000", help="address:port to listen on (default %(default)s)"
    )
    args = parser.parse_args(argv)
    os.chdir(BASE_DIR)
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
    ensure_secret_key()
    addresses = lan_addresses()
    ensure_allowed_hosts(addresses)
    tls = tls_files()
    scheme = "https" if tls else "http"
    port = args.bind.rsplit(":", 1)[-1]
    ensure_public_url(addresses, port, scheme)
    if status := prepare():
        sys.exit(status)
    print(f"{'gunicorn' if gunicorn_runs() else 'waitress'}: {WORKERS * THREADS} threads on {args.bind}.")
    print("Open on the tablets:" if addresses else "No network address found; on this machine open:")
    for address in addresses or ["127.0.0.1"]:
        print(f"  {scheme}://{address}:{port}/")
    if not tls:
        print(
            "Plain HTTP: a judge's page cannot reload while the Wi-Fi is down. CERT_FILE and KEY_FILE serve HTTPS."
        )
    start_backup_timer()
    sys.stdout.flush()
    serve(args.bind, tls)


if __name__ == "__main__":
    main()
