"""Preflight's results: a check's outcome, a file's report, and the table of them all."""

from __future__ import annotations

from dataclasses import dataclass

OK = "ok"
WARNING = "warning"
FAIL = "fail"
NA = "n/a"

_SHOWN = {OK: "ok", WARNING: "warning", FAIL: "FAIL", NA: "n/a"}


@dataclass(frozen=True)
class Check:
    """The outcome of one check on one file: its status, what was measured and, when it
    is not ok, what to do about it."""

    name: str
    status: str
    detail: str
    advice: str = ""


@dataclass(frozen=True)
class Report:
    """Every check of one output file."""

    path: str
    profile: str
    checks: tuple[Check, ...]

    @property
    def failed(self) -> bool:
        """Whether any check failed."""
        return any(check.status == FAIL for check in self.checks)

    def check(self, name: str) -> Check:
        """The check of that name; ``KeyError`` when the report has none."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)


def format_table(reports: list[Report], names: tuple[str, ...] = ()) -> str:
    """A plain-text table: one row per output, one column per check (ok / warning / FAIL),
    then the details of every warning and failure, each naming the file, the page and
    what to do."""
    columns = list(names)
    for report in reports:
        for check in report.checks:
            if check.name not in columns:
                columns.append(check.name)
    header = ["file", *columns]
    rows = []
    for report in reports:
        statuses = {c.name: _SHOWN.get(c.status, c.status) for c in report.checks}
        rows.append([report.path, *(statuses.get(name, "-") for name in columns)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    details = [
        f"{report.path}: {check.name}: {_SHOWN[check.status]}: {check.detail}"
        + (f" — {check.advice}" if check.advice else "")
        for report in reports
        for check in report.checks
        if check.status in (WARNING, FAIL)
    ]
    failed = sum(report.failed for report in reports)
    warned = sum(
        not report.failed and any(c.status == WARNING for c in report.checks) for report in reports
    )
    summary = f"{len(reports)} output{'s' if len(reports) != 1 else ''}: {failed} failed"
    if warned:
        summary += f", {warned} with warnings"
    if details:
        lines += ["", *details]
    lines += ["", summary]
    return "\n".join(lines)
