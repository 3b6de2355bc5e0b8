// The static site's stand-in for the anywidget model: the renderers' get/on/off/send, over
// worker messages.
import { describe, expect, it, vi } from "vitest";
import { WorkerModel } from "../src/site/model.js";

describe("WorkerModel", () => {
  it("hands Python's changes to the renderers as Backbone does: each key, then one change", () => {
    const model = new WorkerModel({ cursor: 0, legal: ["play 1"] }, vi.fn());
    const order = [];
    model.on("change:cursor", () => order.push(`cursor=${model.get("cursor")}`));
    model.on("change:legal", () => order.push("legal"));
    model.on("change", () => order.push("change"));
    model.update({ cursor: 1, legal: [] });
    expect(order).toEqual(["cursor=1", "legal", "change"]);
    const h = () => order.push("again");
    model.on("change:cursor", h);
    model.off("change:cursor", h);
    model.off("change:legal");
    model.update({ cursor: 2, legal: ["x"] });
    expect(order.slice(3)).toEqual(["cursor=2", "change"]);
  });

  it("sends a message with a number and reports Python's answer as a kernel going idle", () => {
    const post = vi.fn();
    const model = new WorkerModel({}, post);
    const status = vi.fn();
    model.send({ type: "act", action: "play 5" }, { iopub: { status } });
    model.send({ type: "clear_error" });
    expect(post.mock.calls.map((c) => c[0])).toEqual([
      { kind: "msg", seq: 1, content: { type: "act", action: "play 5" } },
      { kind: "msg", seq: 2, content: { type: "clear_error" } },
    ]);
    model.answered(2);
    expect(status).not.toHaveBeenCalled();
    model.answered(1);
    expect(status).toHaveBeenCalledWith({ content: { execution_state: "idle" } });
    model.answered(1);  // once only
    expect(status).toHaveBeenCalledTimes(1);
  });

  it("sends a value set in the page to Python, which refuses it (save_changes)", () => {
    const post = vi.fn();
    const model = new WorkerModel({ seat: 0 }, post);
    model.save_changes();
    expect(post).not.toHaveBeenCalled();
    model.set("seat", null);
    model.save_changes();
    expect(post).toHaveBeenCalledWith({ kind: "state", values: { seat: null } });
  });

  it("passes Python's custom messages to msg:custom", () => {
    const model = new WorkerModel({}, vi.fn());
    const h = vi.fn();
    model.on("msg:custom", h);
    model.custom({ type: "ping" });
    expect(h).toHaveBeenCalledWith({ type: "ping" }, []);
  });
});
