// @ts-check
// The map's input: mouse, pen and touch through Pointer Events, the wheel, and keys when
// the canvas has focus, turned into a few intentions (zoom about a point, pan, reset, hover,
// pick a point, select a region). It changes nothing itself: `MapView` passes handlers that
// move the camera and tell the controller.
//
// A press that moves less than DRAG_PX before it is released is a click (or a tap); more,
// and it pans, or, with Shift held or the region tool on, draws a selection rectangle. Two
// fingers pinch: the distance between them zooms about their midpoint, which also pans.

const DRAG_PX = 4;
/** Two taps closer than this in time and space reset the view, as a double-click does. */
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_PX = 24;
/** Zoom per wheel pixel (a notch is about 100 px) and per key press. */
const WHEEL_ZOOM = 0.002;
const KEY_ZOOM = 1.5;
/** A key press pans this fraction of the view. */
const KEY_PAN = 0.1;

/**
 * @typedef {object} MapInput
 * @property {(x: number, y: number, factor: number) => void} zoomAt  CSS px on the canvas; factor > 1 zooms in
 * @property {(dx: number, dy: number) => void} panBy  CSS px the content moves
 * @property {(fx: number, fy: number) => void} panFraction  fractions of the view the content moves
 * @property {() => void} reset
 * @property {(x: number|null, y?: number) => void} hover  null when the pointer left
 * @property {(x: number, y: number, options: {add: boolean}) => void} pick  a click or tap
 * @property {(rect: {x0: number, y0: number, x1: number, y1: number}|null) => void} drawRegion  the rectangle being drawn
 * @property {(rect: {x0: number, y0: number, x1: number, y1: number}, options: {add: boolean}) => void} selectRegion
 * @property {() => void} escape  Escape: clear the selection
 * @property {() => boolean} regionTool  whether a drag draws a rectangle rather than pans
 */

/** Binds the input of `canvas` to `input`. @param {HTMLCanvasElement} canvas @param {MapInput} input */
export function bindMapInput(canvas, input) {
  bindPointers(canvas, input);
  bindWheel(canvas, input);
  bindKeys(canvas, input);
}

/** An event's position in CSS px on `canvas`. @param {HTMLCanvasElement} canvas @param {MouseEvent} event */
function positionOn(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

/**
 * Presses, drags and pinches (mouse, pen and touch): click, pan, region or pinch zoom; and
 * hover. @param {HTMLCanvasElement} canvas @param {MapInput} input
 */
function bindPointers(canvas, input) {
  /** @type {Map<number, {x: number, y: number, startX: number, startY: number}>} */
  const pointers = new Map();
  /** 'press' until it moves, then 'pan', 'region' or 'pinch'. */
  let mode = null;
  let shift = false;
  let lastTap = null;
  let pinch = null;

  const position = (event) => positionOn(canvas, event);
  const pinchState = () => {
    const [a, b] = [...pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    canvas.setPointerCapture?.(event.pointerId);
    const { x, y } = position(event);
    pointers.set(event.pointerId, { x, y, startX: x, startY: y });
    if (pointers.size === 1) {
      mode = 'press';
      shift = event.shiftKey;
    } else if (pointers.size === 2) {
      input.drawRegion(null);
      mode = 'pinch';
      pinch = pinchState();
    }
  });

  canvas.addEventListener('pointermove', (event) => {
    const { x, y } = position(event);
    const pointer = pointers.get(event.pointerId);
    if (!pointer) {
      if (event.pointerType !== 'touch') input.hover(x, y);
      return;
    }
    const [dx, dy] = [x - pointer.x, y - pointer.y];
    pointer.x = x;
    pointer.y = y;
    if (mode === 'press' && Math.hypot(x - pointer.startX, y - pointer.startY) > DRAG_PX) {
      mode = shift || input.regionTool() ? 'region' : 'pan';
      input.hover(null);
      if (mode === 'pan') input.panBy(x - pointer.startX, y - pointer.startY);
    } else if (mode === 'pan') {
      input.panBy(dx, dy);
    }
    if (mode === 'region') input.drawRegion({ x0: pointer.startX, y0: pointer.startY, x1: x, y1: y });
    if (mode === 'pinch' && pointers.size === 2) {
      const now = pinchState();
      if (pinch.distance > 0 && now.distance > 0) input.zoomAt(now.x, now.y, now.distance / pinch.distance);
      input.panBy(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
    }
  });

  const release = (event, cancelled) => {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    pointers.delete(event.pointerId);
    if (!cancelled && mode === 'press') {
      const tap = { x: pointer.x, y: pointer.y, time: event.timeStamp };
      const double = event.pointerType !== 'mouse' && lastTap && tap.time - lastTap.time < DOUBLE_TAP_MS
        && Math.hypot(tap.x - lastTap.x, tap.y - lastTap.y) < DOUBLE_TAP_PX;
      lastTap = double ? null : tap;
      if (double) input.reset();
      else input.pick(pointer.x, pointer.y, { add: shift || event.shiftKey });
    }
    if (!cancelled && mode === 'region') {
      input.drawRegion(null);
      input.selectRegion({ x0: pointer.startX, y0: pointer.startY, x1: pointer.x, y1: pointer.y }, { add: shift });
    }
    if (cancelled) input.drawRegion(null);
    // One finger lifted from a pinch: the other goes on as a pan, not as a click.
    mode = pointers.size === 0 ? null : 'pan';
  };
  canvas.addEventListener('pointerup', (event) => release(event, false));
  canvas.addEventListener('pointercancel', (event) => release(event, true));
  canvas.addEventListener('pointerleave', (event) => {
    if (!pointers.has(event.pointerId)) input.hover(null);
  });
}

/** The wheel zooms about the pointer; a double-click resets. @param {HTMLCanvasElement} canvas @param {MapInput} input */
function bindWheel(canvas, input) {
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const { x, y } = positionOn(canvas, event);
    // deltaMode 1 counts lines, 2 pages; about 16 and 400 pixels.
    const pixels = event.deltaY * [1, 16, 400][event.deltaMode];
    input.zoomAt(x, y, Math.exp(-pixels * WHEEL_ZOOM));
  }, { passive: false });

  canvas.addEventListener('dblclick', (event) => {
    event.preventDefault();
    input.reset();
  });
}

/** Keys when the canvas has focus: zoom, pan, reset, Escape. @param {HTMLCanvasElement} canvas @param {MapInput} input */
function bindKeys(canvas, input) {
  canvas.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const rect = canvas.getBoundingClientRect();
    const [cx, cy] = [rect.width / 2, rect.height / 2];
    const actions = {
      '+': () => input.zoomAt(cx, cy, KEY_ZOOM),
      '=': () => input.zoomAt(cx, cy, KEY_ZOOM),
      '-': () => input.zoomAt(cx, cy, 1 / KEY_ZOOM),
      _: () => input.zoomAt(cx, cy, 1 / KEY_ZOOM),
      ArrowLeft: () => input.panFraction(KEY_PAN, 0),
      ArrowRight: () => input.panFraction(-KEY_PAN, 0),
      ArrowUp: () => input.panFraction(0, KEY_PAN),
      ArrowDown: () => input.panFraction(0, -KEY_PAN),
      Home: () => input.reset(),
      0: () => input.reset(),
      Escape: () => input.escape(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}
