// The page's stand-in for an anywidget model: the same get/set/on/off/send/save_changes the
// table's renderers use in Jupyter, over Web Worker messages instead of a kernel's comm.
// Python (in the worker) owns every value; this copy only mirrors what it sends.

/**
 * @typedef {{kind: string, [k: string]: any}} WorkerMessage
 * @typedef {(msg: WorkerMessage) => void} Post
 */

export class WorkerModel {
  /**
   * @param {Record<string, any>} values every synced value at first paint
   * @param {Post} post sends one message to the worker
   */
  constructor(values, post) {
    /** @type {Record<string, any>} */
    this.values = { ...values };
    this.post = post;
    /** @type {Record<string, Function[]>} */
    this.handlers = {};
    /** @type {Record<string, any>} values set here and not yet saved */
    this.dirty = {};
    /** @type {Map<number, any>} the callbacks of messages Python has not answered yet */
    this.waiting = new Map();
    this.seq = 0;
  }

  /** @param {string} key */
  get(key) {
    return this.values[key];
  }

  /** A value set in the page, as anywidget's set: local until save_changes (which Python refuses).
   * @param {string} key @param {any} value */
  set(key, value) {
    this.values[key] = value;
    this.dirty[key] = value;
    this.emit([key]);
  }

  save_changes() {
    const values = this.dirty;
    this.dirty = {};
    if (Object.keys(values).length) this.post({ kind: "state", values });
  }

  /** @param {string} event "change:<key>", "change" or "msg:custom" @param {Function} handler */
  on(event, handler) {
    (this.handlers[event] ||= []).push(handler);
  }

  /** @param {string} [event] @param {Function} [handler] all of them when not given, as Backbone's off */
  off(event, handler) {
    if (event === undefined) {
      this.handlers = {};
    } else if (handler === undefined) {
      delete this.handlers[event];
    } else {
      this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== handler);
    }
  }

  /**
   * A custom message to Python. `callbacks.iopub.status` hears "idle" once Python has handled
   * it, as a kernel reports it, so the renderers' "waiting for an answer" ends the same way.
   * @param {any} content @param {any} [callbacks] @param {any} [_buffers]
   */
  send(content, callbacks, _buffers) {
    const seq = ++this.seq;
    if (callbacks) this.waiting.set(seq, callbacks);
    this.post({ kind: "msg", seq, content });
  }

  /** Values Python changed, in one batch: every `change:<key>`, then one `change`, as Backbone.
   * @param {Record<string, any>} values */
  update(values) {
    Object.assign(this.values, values);
    this.emit(Object.keys(values));
  }

  /** Python has handled message `seq`. @param {number} seq */
  answered(seq) {
    const callbacks = this.waiting.get(seq);
    this.waiting.delete(seq);
    callbacks?.iopub?.status?.({ content: { execution_state: "idle" } });
  }

  /** A custom message from Python. @param {any} content */
  custom(content) {
    for (const h of (this.handlers["msg:custom"] || []).slice()) h(content, []);
  }

  /** @param {string[]} keys */
  emit(keys) {
    for (const k of keys) for (const h of (this.handlers[`change:${k}`] || []).slice()) h();
    for (const h of (this.handlers.change || []).slice()) h();
  }
}
