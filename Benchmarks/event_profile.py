"""Benchmarks/event_profile.py PERF_DATA: a perf profile (perf record -g) of a server under an event POST load,
grouped into the parts of an event's path, each as its share of the server's samples (children included, so parts
nest: the event loop holds the apply, which holds the hand-off). Used by Benchmarks/event_cpu.sh with PROFILE=1.
Measurement harness, not product code."""
import re, subprocess, sys
data = sys.argv[1]
out = subprocess.run(["perf", "report", "-i", data, "--children", "--sort", "sym", "-g", "none", "--stdio"],
                     capture_output=True, text=True).stdout
rows = []
for line in out.splitlines():
    m = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+\[.\]\s+(.*)", line)
    if m: rows.append((float(m.group(1)), m.group(3)))
dso = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso", "-g", "none", "--stdio"],
                     capture_output=True, text=True).stdout
groups = [
    ("HTTP: event loop (parse, route, write; includes the apply below)", r"HTTPCore9EventLoopC3run"),
    ("apply: Session.submit (under the lock and after)", r"^\$s13ViewModelCore7SessionC6submit_2to.*F$"),
    ("Session.complete: hand-off, encoding, enqueue", r"ViewModelCore7SessionC8complete"),
    ("encode the events (StoredEvents.encoded)", r"StoredEventsV7encoded"),
    ("encode the session value every 64 inputs", r"StoredValueFormatO6encode|SQLiteStorage7EncodedV|StoredJSONO6encode.*SessionCore"),
    ("encode a record (JournalRecordFormat / SessionInput JSON)", r"JournalRecordFormatO6encode|SessionInputO10storedJSON|storedJSON"),
    ("writer thread (group commit, SQLite statements, ledger)", r"GroupCommitQueueC5drain"),
    ("task per event: create + enqueue", r"^swift_task_create_common$"),
    ("task per event: enqueue on the pool", r"^swift_task_enqueueGlobalImpl$"),
]
print(f"{'part':70} {'% of server CPU':>16}")
for label, pattern in groups:
    best = max([p for p, s in rows if re.search(pattern, s)] or [0.0])
    print(f"{label:70} {best:16.1f}")
for line in dso.splitlines():
    m = re.match(r"\s+([\d.]+)%\s+(\S+)", line)
    if m and m.group(2) in ("[kernel.kallsyms]", "libsqlite3.so.0.8.6", "libz.so.1.2.13"):
        print(f"{'DSO ' + m.group(2):70} {float(m.group(1)):16.1f}")
