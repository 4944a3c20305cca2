#!/usr/bin/env python3
"""The HTML report (--format=html) in a real browser: headless Chromium
through Selenium (Debian: chromium, chromium-driver, python3-selenium).

usage: tests/html_report.py LIST.tsv [--screenshot PNG HTML ...]

LIST.tsv holds one case a line: HTML report, JSON report, what to check
("rows": every row against the JSON report's diagnostics, a rule filter,
each picture's marks; "big": opens, counts, filters). Every case opens in
one browser session. Prints one "ok"/"FAIL" line a check and ends with
"compared N cases" and "N passed, N failed".

--screenshot PNG HTML [SETUP]: instead, opens HTML and saves a picture of
the page (docs/); SETUP "row" picks a row so the bytes show.
"""
import json
import os
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)
    return cond


def browser(width=1280, height=1000):
    o = Options()
    o.add_argument("--headless")
    o.add_argument("--no-sandbox")
    o.add_argument("--disable-gpu")
    o.add_argument("--disable-dev-shm-usage")
    o.add_argument(f"--window-size={width},{height}")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = "/usr/bin/chromedriver"
    svc = Service(drv) if os.path.exists(drv) else Service()
    b = webdriver.Chrome(service=svc, options=o)
    b.set_page_load_timeout(120)
    b.set_script_timeout(120)
    return b


def console_errors(b):
    return [e for e in b.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def open_report(b, path):
    b.get_log("browser")  # drop what the previous page left
    b.get("file://" + os.path.abspath(path))
    t0 = time.time()
    while time.time() - t0 < 60:
        if b.execute_script("return !!window.hvReport"):
            return True
        time.sleep(0.05)
    return False


# Every row the virtual list holds, scrolling it from top to bottom (the
# scroll handler draws rows synchronously), read from the cells as shown.
COLLECT = r"""
const list = document.getElementById('list');
const seen = new Map();
list.scrollTop = 0;
for (let y = 0; ; y += Math.max(1, list.clientHeight - 26)) {
  list.scrollTop = y;
  list.dispatchEvent(new Event('scroll'));
  for (const r of list.querySelectorAll('.row[data-i]')) {
    const i = +r.dataset.i;
    if (seen.has(i)) continue;
    seen.set(i, {top: parseFloat(r.style.top), rule: r.querySelector('.c-rule').textContent,
      severity: r.querySelector('.c-sev').textContent, file: r.querySelector('.c-file').textContent,
      offset: +r.querySelector('.c-off').dataset.offset, message: r.querySelector('.c-msg').textContent});
  }
  if (y + list.clientHeight >= list.scrollHeight) break;
}
return Array.from(seen.values()).sort((a, b) => a.top - b.top);
"""

# The list grouped by rule: its headers and rows in display order.
COLLECT_GROUPED = r"""
const list = document.getElementById('list');
const seen = new Map();
for (let y = 0; ; y += Math.max(1, list.clientHeight - 26)) {
  list.scrollTop = y;
  list.dispatchEvent(new Event('scroll'));
  for (const r of list.querySelectorAll('.row')) {
    const top = parseFloat(r.style.top);
    if (!seen.has(top)) seen.set(top, r.dataset.group ? 'G ' + r.dataset.group + ' ' + r.textContent.match(/ — ([0-9,]+) diagnostic/)[1]
                                          : r.querySelector('.c-rule').textContent);
  }
  if (y + list.clientHeight >= list.scrollHeight) break;
}
return Array.from(seen.entries()).sort((a, b) => a[0] - b[0]).map(e => e[1]);
"""

KEYS = ("rule", "severity", "file", "offset", "message")


def json_diags(rep):
    out = []
    for inp in rep["inputs"]:
        for d in inp.get("diagnostics", []):
            out.append(d)
    return out


# Where a finding is, read from the JSON report independently of the page's
# script: the picture of each family holds one mark per diagnostic that has
# that family's coordinate; the byte map one per diagnostic with a file and a
# byte position (not about a file as a whole: offset 0 and length 0).
def expected_marks(inp):
    ds = inp.get("diagnostics", [])
    fmt = (inp.get("format") or "").lower()
    want = {}
    if fmt.startswith("dumpi"):
        want["dumpi-ranks"] = sum(1 for d in ds if re.search(r"-\d+\.bin$", d["file"]))
    if fmt.startswith("ovni"):
        want["ovni-streams"] = sum(1 for d in ds if re.search(r"(^|/)loom\.[^/]+/proc\.[^/]+/thread\.[^/.]+", d["file"]))
    if fmt.startswith("hpctoolkit"):
        want["hpctoolkit-profiles"] = sum(
            1 for d in ds
            if re.search(r"(profile|trace)\[\d+\]", d["struct_path"]) or re.search(r"(^|/)ctx\[\d+\]", d["struct_path"])
            or re.search(r"\bctxId \d+\b", d["message"]) or re.search(r"\(context \d+\)", d["message"]))
    want["bytes"] = sum(1 for d in ds if d["file"] and not (d["offset"] == 0 and d["length"] == 0))
    return {k: v for k, v in want.items() if v}


def check_rows(b, html, rep, name):
    want = [{k: d[k] for k in KEYS} for d in json_diags(rep)]
    got = b.execute_script(COLLECT)
    got = [{k: g[k] for k in KEYS} for g in got]
    if not ok(got == want, f"{name}: the rows equal the JSON report's diagnostics ({len(got)} rows, {len(want)} in JSON)"):
        for g, w in zip(got, want):
            if g != w:
                print("  first difference:", g, "vs", w)
                break
    model = b.execute_script("return window.hvReport.rows()")
    ok([{k: m[k] for k in KEYS} for m in model] == want, f"{name}: the page's model equals the JSON report")
    # a rule filter shows exactly that rule's rows (the first and the last rule)
    rules = []
    for d in want:
        if d["rule"] not in rules:
            rules.append(d["rule"])
    for rule in rules[:1] + rules[-1:] if len(rules) > 1 else rules:
        Select(b.find_element(By.ID, "f-rule")).select_by_visible_text(rule)
        shown = b.execute_script(COLLECT)
        ok([{k: s[k] for k in KEYS} for s in shown] == [d for d in want if d["rule"] == rule],
           f"{name}: the rule filter {rule} shows exactly its {sum(1 for d in want if d['rule'] == rule)} rows")
    Select(b.find_element(By.ID, "f-rule")).select_by_value("-1")
    # grouped by rule: a header per rule with its count, then its rows
    if len(rules) > 1:
        b.find_element(By.ID, "f-group").click()
        got = b.execute_script(COLLECT_GROUPED)
        exp = []
        for rule in sorted(rules):
            n = sum(1 for d in want if d["rule"] == rule)
            exp += [f"G {rule} {n:,}"] + [rule] * n
        ok(got == exp, f"{name}: grouped by rule, {len(rules)} groups with their counts")
        b.find_element(By.ID, "f-group").click()
    # the pictures: one mark per located diagnostic
    for k, inp in enumerate(rep["inputs"]):
        box = b.find_element(By.ID, f"input-{k}")
        if not box.get_attribute("open"):
            b.execute_script("arguments[0].open = true; arguments[0].dispatchEvent(new Event('toggle'))", box)
        got_marks = b.execute_script(
            "const o = {}; for (const s of arguments[0].querySelectorAll('svg.map')) o[s.dataset.picture] = s.querySelectorAll('.mk').length; return o;",
            box)
        ok(got_marks == expected_marks(inp), f"{name}: input {k} pictures' marks {got_marks}, want {expected_marks(inp)}")
        hidden = b.execute_script(
            "return Array.from(arguments[0].querySelectorAll('svg.map .mk')).filter(m => m.parentNode.tagName !== 'svg' || !m.getBoundingClientRect().width).length",
            box)
        ok(hidden == 0, f"{name}: input {k}: every mark is drawn at the top of its picture ({hidden} are not)")
    # a click on a mark shows its row
    mk = b.find_elements(By.CSS_SELECTOR, "svg.map .mk")
    if mk:
        i = int(mk[-1].get_attribute("data-i"))
        b.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mk[-1])
        shown = b.execute_script(COLLECT)
        ok(len(shown) == 1 and {k: shown[0][k] for k in KEYS} == want[i], f"{name}: a click on a mark shows its row")


def check_big(b, html, rep, name):
    diags = json_diags(rep)
    n = b.execute_script("return window.hvReport.rows().length")
    ok(n == len(diags), f"{name}: {n} rows, JSON has {len(diags)}")
    count = b.find_element(By.ID, "count").text
    ok(count.startswith(f"{len(diags):,} of"), f"{name}: the count says {count}")
    rule = diags[-1]["rule"]
    # the filter's own time, measured in the page
    took = b.execute_script("""
      const s = document.getElementById('f-rule'), t0 = performance.now();
      s.value = String(window.hvReport.data.head.rules.findIndex(r => r.id === arguments[0]));
      s.dispatchEvent(new Event('change'));
      return (performance.now() - t0) / 1000;""", rule)
    model = b.execute_script("return window.hvReport.rows()")
    ok(len(model) == sum(1 for d in diags if d["rule"] == rule) and all(m["rule"] == rule for m in model),
       f"{name}: the rule filter {rule} shows exactly its rows ({len(model)})")
    visible = b.execute_script("return Array.from(document.querySelectorAll('#list .row[data-i]')).map(r => r.querySelector('.c-rule').textContent)")
    ok(visible and all(v == rule for v in visible), f"{name}: the rows drawn are that rule's")
    # the pictures, drawn when the input is opened: one mark per located diagnostic
    drawn = b.execute_script("""
      const box = document.getElementById('input-0'), t0 = performance.now();
      box.open = true; box.dispatchEvent(new Event('toggle'));
      const o = {};
      for (const s of box.querySelectorAll('svg.map')) o[s.dataset.picture] = s.querySelectorAll('.mk').length;
      return [o, (performance.now() - t0) / 1000];""")
    ok(drawn[0] == expected_marks(rep["inputs"][0]), f"{name}: pictures' marks {drawn[0]}, want {expected_marks(rep['inputs'][0])}")
    took = f"{took:.2f} s, pictures drawn in {drawn[1]:.2f} s"
    print(f"  {name}: {len(diags)} diagnostics, {os.path.getsize(html) / 1e6:.1f} MB, filter by rule {took}", flush=True)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--screenshot":
        png, html = args[1], args[2]
        setup = args[3] if len(args) > 3 else ""
        b = browser(1280, 1500 if setup != "row" else 1200)
        try:
            open_report(b, html)
            if setup == "row":
                b.execute_script("document.getElementById('diagnostics').scrollIntoView()")
                rows = b.find_elements(By.CSS_SELECTOR, "#list .row[data-i]")
                if len(rows) > 2:
                    rows[2].click()
            b.save_screenshot(png)
        finally:
            b.quit()
        return 0
    cases = [line.rstrip("\n").split("\t") for line in open(args[0], encoding="utf-8") if line.strip()]
    b = browser()
    compared = 0
    printed = False
    try:
        for html, js, mode in cases:
            name = os.path.basename(html)
            t0 = time.time()
            if not ok(open_report(b, html), f"{name}: the page's script ran"):
                print("  console:", console_errors(b)[:3])
                continue
            load = time.time() - t0
            errs = console_errors(b)
            ok(not errs, f"{name}: no console error {errs[:2]}")
            rep = json.load(open(js, encoding="utf-8"))
            if mode == "big":
                print(f"  {name}: opened in {load:.2f} s", flush=True)
                check_big(b, html, rep, name)
            else:
                check_rows(b, html, rep, name)
            if mode == "rows" and not printed and json_diags(rep):
                # printable: print media, the filtered rows as a table (Esc
                # first: it clears the mark picked above)
                lst = b.find_element(By.ID, "list")
                lst.send_keys(Keys.ESCAPE)
                if len(json_diags(rep)) >= 2:
                    # keyboard: Home, then Down picks the second row; / goes to the search
                    lst.send_keys(Keys.HOME)
                    lst.send_keys(Keys.ARROW_DOWN)
                    sel = b.execute_script("const r = document.querySelector('#list .row.sel .c-msg'); return r && r.textContent")
                    ok(sel == json_diags(rep)[1]["message"], f"{name}: Home, Down picks the second row")
                    lst.send_keys("/")
                    ok(b.execute_script("return document.activeElement.id") == "f-search", f"{name}: / goes to the search")
                    lst.send_keys(Keys.ESCAPE)
                pdf = b.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})
                rows = b.execute_script("return document.querySelectorAll('#printlist tr').length")
                ok(len(pdf.get("data", "")) > 1000 and rows == len(json_diags(rep)) + 1,
                   f"{name}: prints, with the {len(json_diags(rep))} rows as a table ({rows - 1} printed)")
                printed = True
            errs = console_errors(b)
            ok(not errs, f"{name}: no console error after filtering {errs[:2]}")
            compared += 1
    finally:
        b.quit()
    print(f"compared {compared} cases (HTML report against JSON report)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
