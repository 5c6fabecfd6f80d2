// The replay as a video: the map's canvas captured (`captureStream`) and encoded by the
// browser's MediaRecorder as WebM, no dependency. The canvas emits a video frame whenever it
// is drawn, so the recording is as smooth as the replay on screen.

/** The WebM types tried, best first. */
const TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** Whether this browser can record a canvas as WebM. */
export function canRecord(canvas) {
  return typeof MediaRecorder !== 'undefined' && typeof canvas.captureStream === 'function'
    && TYPES.some((type) => MediaRecorder.isTypeSupported(type));
}

/** The shortest recording: an encoder just started may not have written a frame sooner. */
const MIN_MS = 1500;

/**
 * Records `canvas` while `play()` runs (a promise that ends with the replay) and gives the
 * WebM file. Recording goes on `settle` ms more (and to MIN_MS in all), with `repaint()`
 * drawing the canvas again meanwhile (a canvas gives a video frame only when drawn), so the
 * last frame's glide is in it. Fails when the browser recorded nothing.
 * @param {HTMLCanvasElement} canvas @param {() => Promise<void>} play @param {() => void} repaint
 */
export async function recordCanvas(canvas, play, repaint, { settle = 400, fps = 30 } = {}) {
  const stream = canvas.captureStream(fps);
  const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new MediaRecorder(stream, { mimeType });
  const chunks = [];
  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  const stopped = new Promise((resolve, reject) => {
    recorder.addEventListener('stop', resolve);
    recorder.addEventListener('error', (event) => reject(event.error ?? new Error('the recording failed')));
  });
  // Data every second, so a long replay is not held in one piece until the end.
  const started = performance.now();
  recorder.start(1000);
  try {
    await play();
    const until = Math.max(performance.now() + settle, started + MIN_MS);
    while (performance.now() < until) {
      repaint();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    recorder.stop();
    await stopped;
    for (const track of stream.getTracks()) track.stop();
  }
  const blob = new Blob(chunks, { type: 'video/webm' });
  if (blob.size === 0) throw new Error('the browser recorded no video: try again');
  return blob;
}
