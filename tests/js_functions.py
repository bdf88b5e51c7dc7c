"""The functions of a JavaScript source and the lines each spans, for the browser code's size checks
(tests/test_web_functions.py), without a JavaScript parser: a scanner that knows strings, template
literals (``${…}`` nested), regular expression literals and comments, so that a brace inside any of
them is not counted, and a bracket matcher over the tokens it leaves.

A function is ``function name(…) {…}`` (async, generators and anonymous ones too), a method of a
class or an object literal (``draw() {…}``, ``get name() {…}``) and an arrow function, with a
block body (``(x) => {…}``) or an expression body (``(x) => x + 1``, up to the ``,``, ``;`` or
closing bracket that ends the expression). Its span runs from the line of its head (the keyword
``function``, the method's name, the arrow's parameters) to the line of its closing brace, nested
functions included. Names are the declared name, the method's name or the variable or property an
arrow function is given to; ``(arrow)`` / ``(function)`` otherwise.

Good enough for code that parses (the served modules); on source that does not it reports a
:class:`ScanError` rather than a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class ScanError(ValueError):
    """The source ended inside a string, comment or bracket, or closed a bracket it never opened."""


@dataclass(frozen=True)
class Token:
    kind: str  # "name" (identifiers and keywords), "num", "str" (strings, templates, regexes), "punct"
    text: str
    line: int  # 1-based line where the token starts
    end: int  # line where it ends (a string or template may span lines)


@dataclass(frozen=True)
class Function:
    name: str
    first: int  # 1-based line of its head
    last: int  # line of its closing brace (or the end of an expression body)

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


# after these a "/" starts a regular expression, not a division
_REGEX_AFTER_NAMES = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                      "instanceof", "yield", "await"}
_CONTROL = {"if", "for", "while", "switch", "catch", "with", "function"}
_NAME = re.compile(r"[A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*")
_NUMBER = re.compile(r"\d[\w.]*|\.\d[\w]*")
_PUNCT3 = ("...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=")
_PUNCT2 = ("=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
           "&=", "|=", "^=", "**", "<<", ">>")


def tokenize(src: str) -> list[Token]:
    """The tokens of ``src`` (comments dropped). Raises :class:`ScanError` on an unterminated string,
    template, regex or comment, or a ``}`` with no ``{``."""
    out: list[Token] = []
    i, line, n = 0, 1, len(src)
    # one entry per open "{": "brace", or "template" for the "${" of a template literal, whose "}"
    # resumes the template's text
    braces: list[str] = []

    def scan_template(i: int, line: int) -> tuple[int, int, bool]:
        """From inside a template's text to its end (False) or to a "${" (True)."""
        while i < n:
            c = src[i]
            if c == "\\":
                i += 2
                continue
            if c == "`":
                return i + 1, line, False
            if c == "$" and src.startswith("${", i):
                return i + 2, line, True
            if c == "\n":
                line += 1
            i += 1
        raise ScanError(f"line {line}: unterminated template literal")

    def regex_allowed() -> bool:
        if not out:
            return True
        last = out[-1]
        if last.kind == "name":
            return last.text in _REGEX_AFTER_NAMES
        if last.kind in ("num", "str"):
            return False
        return last.text not in (")", "]", "}", "++", "--")

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r\f\v\ufeff\u00a0\u2028\u2029":
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise ScanError(f"line {line}: unterminated comment")
            line += src.count("\n", i, j)
            i = j + 2
        elif c in "'\"":
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\n":
                    raise ScanError(f"line {line}: unterminated string")
                j += 2 if src[j] == "\\" else 1
            if j >= n:
                raise ScanError(f"line {line}: unterminated string")
            out.append(Token("str", src[i:j + 1], line, line))
            i = j + 1
        elif c == "`":
            start = line
            i, line, opened = scan_template(i + 1, line)
            out.append(Token("str", "`", start, line))
            if opened:
                braces.append("template")
        elif c == "/" and regex_allowed():
            j, in_class = i + 1, False
            while True:
                if j >= n or src[j] == "\n":
                    raise ScanError(f"line {line}: unterminated regular expression")
                ch = src[j]
                if ch == "\\":
                    j += 2
                    continue
                if ch == "[":
                    in_class = True
                elif ch == "]":
                    in_class = False
                elif ch == "/" and not in_class:
                    break
                j += 1
            j += 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1  # flags
            out.append(Token("str", src[i:j], line, line))
            i = j
        elif m := _NAME.match(src, i):
            out.append(Token("name", m.group(), line, line))
            i = m.end()
        elif m := _NUMBER.match(src, i):
            out.append(Token("num", m.group(), line, line))
            i = m.end()
        elif c == "{":
            braces.append("brace")
            out.append(Token("punct", c, line, line))
            i += 1
        elif c == "}":
            if not braces:
                raise ScanError(f"line {line}: '}}' with no '{{'")
            if braces.pop() == "template":
                start = line
                i, line, opened = scan_template(i + 1, line)
                out.append(Token("str", "`", start, line))
                if opened:
                    braces.append("template")
            else:
                out.append(Token("punct", c, line, line))
                i += 1
        else:
            for p in (*_PUNCT3, *_PUNCT2, c):
                if src.startswith(p, i):
                    out.append(Token("punct", p, line, line))
                    i += len(p)
                    break
    if braces:
        raise ScanError("the source ends inside a '{'")
    return out


def _pairs(tokens: list[Token]) -> dict[int, int]:
    """Each bracket's index -> its partner's index (both ways)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    closing = {")": "(", "]": "[", "}": "{"}
    for k, tok in enumerate(tokens):
        if tok.kind != "punct":
            continue
        if tok.text in "([{":
            stack.append(k)
        elif tok.text in closing:
            if not stack or tokens[stack[-1]].text != closing[tok.text]:
                raise ScanError(f"line {tok.line}: unmatched '{tok.text}'")
            o = stack.pop()
            pairs[o], pairs[k] = k, o
    if stack:
        raise ScanError(f"line {tokens[stack[-1]].line}: unclosed '{tokens[stack[-1]].text}'")
    return pairs


def _given_to(tokens: list[Token], k: int) -> str | None:
    """The name a function starting at token ``k`` is given to: ``name = …``, ``name: …``."""
    if k >= 2 and tokens[k - 1].text in ("=", ":") and tokens[k - 2].kind in ("name", "str"):
        return tokens[k - 2].text.strip("'\"")
    return None


def functions(src: str) -> list[Function]:
    """Every function of ``src`` (see the module's docstring), in the order their heads appear."""
    tokens = tokenize(src)
    pairs = _pairs(tokens)
    found: list[tuple[int, Function]] = []
    for k, tok in enumerate(tokens):
        if tok.kind != "punct":
            continue
        if tok.text == "=>":
            # the parameters: a name, or a parenthesised list; "async" before them belongs to the head
            head = pairs[k - 1] if tokens[k - 1].text == ")" else k - 1
            if head > 0 and tokens[head - 1].text == "async":
                head -= 1
            name = _given_to(tokens, head) or "(arrow)"
            if k + 1 < len(tokens) and tokens[k + 1].text == "{":
                last = tokens[pairs[k + 1]].end
            else:
                j = k + 1
                while j < len(tokens):
                    t = tokens[j]
                    if t.kind == "punct" and t.text in ("(", "[", "{"):
                        j = pairs[j] + 1
                        continue
                    if t.kind == "punct" and t.text in (",", ";", ")", "]", "}"):
                        break
                    j += 1
                last = tokens[j - 1].end
            found.append((head, Function(name, tokens[head].line, last)))
        elif tok.text == "{" and k > 0 and tokens[k - 1].text == ")":
            o = pairs[k - 1]
            before = tokens[o - 1] if o > 0 else None
            if before is None:
                continue
            if before.text == "function" or (before.text == "*" and o > 1 and tokens[o - 2].text == "function"):
                head = o - 1 if before.text == "function" else o - 2
                name = _given_to(tokens, head) or "(function)"
            elif before.kind == "name" and before.text not in _CONTROL:
                head, name = o - 1, before.text
                if head > 0 and tokens[head - 1].text == "function":
                    head -= 1
                elif head > 1 and tokens[head - 1].text == "*" and tokens[head - 2].text == "function":
                    head -= 2
            else:
                continue
            if head > 0 and tokens[head - 1].text == "async":
                head -= 1
            found.append((head, Function(name, tokens[head].line, tokens[pairs[k]].end)))
    return [f for _, f in sorted(found, key=lambda x: x[0])]
