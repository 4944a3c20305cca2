"""Waiting for the web page's state, for the tests that drive it in Chromium
(tests/web_page.py, tests/web_changed.py)."""

from selenium.common.exceptions import TimeoutException

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
