"""The headless Chromium the web page's tests drive (tests/web_page.py,
tests/web_changed.py), and waiting for the page's state."""

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service


def chromium():
    """A headless Chromium through Debian's chromedriver, its console kept
    (the tests fail on a console error), scripts given 120 s."""
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1200,900',
              # The page shows each report in a sandboxed frame, which Chromium
              # puts in a renderer process of its own, started and ended at each
              # report (~0.15 CPU-s a case here); in the page's process the frame
              # runs the same script under the same sandbox.
              '--disable-features=IsolateSandboxedIframes'):
        opts.add_argument(a)
    opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
    driver.set_script_timeout(120)
    return driver

# Waits, in the page, until its state is one of STATES (a MutationObserver
# on body's data-state: no polling), and returns the state and, of the
# page's result, what the tests compare (not the SARIF, text or HTML
# reports, which would cross the driver for nothing).
WAIT = """
const states = arguments[0], done = arguments[arguments.length - 1];
const settled = () => {
  const state = document.body.dataset.state;
  if (!states.includes(state)) return false;
  const r = window.hpcvetResult;
  done([state, r && ('json' in r ? {exit: r.exit, json: r.json, certificate: r.certificate} : r)]);
  return true;
};
if (!settled())
  new MutationObserver((_, observer) => { if (settled()) observer.disconnect(); })
    .observe(document.body, {attributes: true, attributeFilter: ['data-state']});
"""


def wait_state(driver, states):
    """(state, result) once the page's state is one of states; on the
    driver's script timeout, the state it is in and None."""
    try:
        return driver.execute_async_script(WAIT, list(states))
    except TimeoutException:
        return driver.execute_script('return document.body.dataset.state'), None
