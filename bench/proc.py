"""What the bench scripts read about a running server from /proc."""


def rss_kib(pid, field="VmRSS"):
    """A memory figure of /proc/PID/status in KiB: VmRSS, VmHWM (the peak), RssAnon, RssFile;
    0 once the process is gone."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0
