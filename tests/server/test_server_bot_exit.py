"""A process whose bot workers are still running when it exits ends (it hung once: the deep
lane's thread replaced the workers that multiprocessing's exit handler had terminated, and the
same handler then waited on the new ones for ever)."""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import threading, time
    from abstracta.server.botjobs import ProcessExecutor

    executor = ProcessExecutor(2)

    def lane():  # as the deep lane does: poll for answers and lost workers, for ever
        while True:
            executor.poll(0.05)

    threading.Thread(target=lane, daemon=True).start()
    time.sleep(1.0)
    print("exiting", flush=True)
    """)


def test_a_process_with_live_bot_workers_exits():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "exiting"
    assert "starting another" not in done.stderr
