"""Texts generated from the rule modules' documentation: `mtgr explain`, docs/diagnostics.md."""

from __future__ import annotations

from mtgr.rules.registry import DOC_HEADINGS, Rule, all_rules


def explain(found: Rule) -> str:
    """Plain text for `mtgr explain CODE`."""
    parts = [f"{found.code}: {found.title} ({found.severity.value})", "", found.doc.summary]
    for heading in DOC_HEADINGS:
        parts += ["", heading, "-" * len(heading), found.doc.section(heading)]
    parts += ["", _basis(found)]
    return "\n".join(parts)


def _basis(found: Rule) -> str:
    decisions = ", ".join(found.decisions) or "none"
    rules = ", ".join(found.cr) or "none"
    return f"Decision items: {decisions}. CR rules: {rules}."


def diagnostics_markdown() -> str:
    """The whole of docs/diagnostics.md."""
    rules = all_rules()
    out = [
        "# Diagnostics",
        "",
        "Generated from the rule modules in `server/mtgr/rules/checks/` by",
        "`mtgr rules --markdown > docs/diagnostics.md`; a test keeps this file in sync.",
        "Codes are stable and never reused. Silence one on a line with `// allow CODE`.",
        "",
        "| code | severity | title |",
        "| --- | --- | --- |",
    ]
    out += [
        f"| [{r.code}](#{r.code.lower()}) | {r.severity.value} | {r.title} |"
        for r in rules.values()
    ]
    for found in rules.values():
        out += ["", f'<a id="{found.code.lower()}"></a>', f"## {found.code}: {found.title}", ""]
        out += [found.doc.summary, "", f"Severity: {found.severity.value}. {_basis(found)}"]
        for heading in DOC_HEADINGS:
            out += ["", f"### {heading}", "", found.doc.section(heading)]
    return "\n".join(out) + "\n"
