from stageclaw.tools.registry import Registry


def test_now_tool(episode):
    with Registry(episode, allow=["now"]) as reg:
        out = reg.call("now", {})
    assert out["timezone"] == "Asia/Shanghai"
    assert out["now"].startswith("2026-03-10T09:00")
