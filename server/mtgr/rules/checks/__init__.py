"""One module a checker rule. Each defines RULE (code, title, severity, decision items, CR
rules, and its documentation under the fixed headings) and registers its checks on it."""
