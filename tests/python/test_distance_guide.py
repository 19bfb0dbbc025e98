"""docs/phy.md's distance guide is what the build's PHY gives (scripts/distance_guide.py)."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("distance_guide", ROOT / "scripts" / "distance_guide.py")
guide = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guide)


def test_the_docs_table_is_current():
    text = (ROOT / "docs" / "phy.md").read_text()
    stored = text.split(guide.BEGIN)[1].split(guide.END)[0].strip()
    assert stored == guide.table().strip(), "run scripts/distance_guide.py --write"


def test_rates_fall_and_ranges_order_as_the_physics_says():
    rows, lock, busy = guide.guide("802.11b")
    rates = [r for r, _ in rows]
    edges = [d for _, d in rows]
    assert rates == sorted(rates, reverse=True) and rates[0] == 11e6 and rates[-1] == 1e6
    assert edges == sorted(edges) and len(set(edges)) == len(edges)
    assert busy < edges[0] < edges[-1] <= lock  # energy-busy range < every rate's < the lock's
    # 802.11a at 5 GHz loses 6.6 dB more than 802.11g at 2.4 GHz at 1 m: shorter everything.
    a, g = guide.guide("802.11a"), guide.guide("802.11g")
    assert a[0][0] == (54e6, a[0][0][1]) and a[1] < g[1] and a[0][-1][1] < g[0][-1][1]
