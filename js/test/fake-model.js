// A fake anywidget model: get/set/on/off/send, enough to drive a table in tests.
import { vi } from "vitest";

/**
 * @param {Record<string, any>} initial trait values
 */
export function fakeModel(initial) {
  const state = { ...initial };
  /** @type {Record<string, Function[]>} */
  const handlers = {};
  const model = {
    get: (k) => state[k],
    set: (k, v) => {
      state[k] = v;
      (handlers[`change:${k}`] || []).slice().forEach((h) => h());
      (handlers.change || []).slice().forEach((h) => h()); // as Backbone does after set()
    },
    /** several traits in one message, as Python's sync sends them: one `change` at the end */
    update: (traits) => {
      Object.assign(state, traits);
      for (const k of Object.keys(traits)) (handlers[`change:${k}`] || []).slice().forEach((h) => h());
      (handlers.change || []).slice().forEach((h) => h());
    },
    on: (ev, h) => (handlers[ev] ||= []).push(h),
    off: (ev, h) => (handlers[ev] = (handlers[ev] || []).filter((x) => x !== h)),
    save_changes: vi.fn(),
    send: vi.fn(),
    handlers,
    /** number of handlers still registered, over all events */
    listenerCount: () => Object.values(handlers).reduce((n, hs) => n + hs.length, 0),
    /** the messages sent so far */
    sent: () => model.send.mock.calls.map((c) => c[0]),
    /** the kernel went idle after every message sent so far: Python has answered them */
    idle: () => {
      for (const [, callbacks] of model.send.mock.calls) callbacks?.iopub?.status?.({ content: { execution_state: "idle" } });
    },
  };
  return model;
}
