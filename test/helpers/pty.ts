/** Python's pty for the tests of terminal views: run a command under a pseudo-terminal and send it keys. */

/** Runs argv under a pseudo-terminal (30×130), sends each key and waits for what it should show; prints what it saw, the exit code and the output. */
export const PTY_SCRIPT = `
import json, os, pty, select, signal, struct, sys, time, fcntl, termios
def run(keys):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[1], sys.argv[1:])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 130, 0, 0))
    out = b""
    def read_until(text, since, timeout=8):
        nonlocal out
        end = time.time() + timeout
        while time.time() < end:
            if text.encode() in out[since:]: return True
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try: out += os.read(fd, 65536)
                except OSError: return text.encode() in out[since:]
        return text.encode() in out[since:]
    seen = {}
    for key, want in keys:
        mark = len(out)
        if key == "FRAMES":
            # Reads for two seconds and counts the frames drawn meanwhile.
            read_until("never shown", mark, 2)
            seen[want] = out[mark:].count(b"\x1b[H")
            continue
        if key == "RESIZE":
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 60, 0, 0))
            os.kill(pid, signal.SIGWINCH)
        elif key is not None:
            os.write(fd, key.encode())
        seen[want] = read_until(want, mark)
    end = time.time() + 8
    status = None
    while time.time() < end:
        try:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r: out += os.read(fd, 65536)
        except OSError: pass
        done, st = os.waitpid(pid, os.WNOHANG)
        if done: status = os.waitstatus_to_exitcode(st); break
    return {"seen": seen, "code": status, "out": out.decode("utf8", "replace")}
keys = json.loads(os.environ["KEYS"])
print(json.dumps(run(keys)))
`;
