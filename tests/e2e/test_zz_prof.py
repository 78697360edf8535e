import time, random
from tests.e2e.play_browser import mint, open_seat, wait_for_version
def test_prof(ledger, dashboard_url, browser):
    c = ledger.create_game("vaalbara", {"players": 2})
    tabs = [open_seat(browser, mint(dashboard_url, t.token, c.game_id), t.seats) for t in c.tokens]
    T = {"load": 0, "wait": 0, "count": 0, "click": 0}
    rnd = random.Random(1); n = 0
    while n < 30:
        t0 = time.perf_counter(); g = ledger.load(c.game_id); t1 = time.perf_counter(); T["load"] += t1 - t0
        if g.is_over: break
        tab = [t for t in tabs if any(s in g.to_act() for s in t.seats)][0]
        wait_for_version(tab, g.version); t2 = time.perf_counter(); T["wait"] += t2 - t1
        b = tab.page.locator("#play-state ol.moves button"); k = b.count(); t3 = time.perf_counter(); T["count"] += t3 - t2
        with tab.page.expect_navigation(wait_until="domcontentloaded"):
            b.nth(rnd.randrange(k)).click()
        T["click"] += time.perf_counter() - t3; n += 1
    print(n, T)
