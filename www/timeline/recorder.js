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

/**
 * Records `canvas` while `play()` runs (a promise that ends with the replay) and gives the
 * WebM file. `settle` ms more are recorded at the end, so the last frame's glide is in it.
 * @param {HTMLCanvasElement} canvas @param {() => Promise<void>} play
 */
export async function recordCanvas(canvas, play, { settle = 400, fps = 30 } = {}) {
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
  recorder.start(1000);
  try {
    await play();
    await new Promise((resolve) => setTimeout(resolve, settle));
  } finally {
    recorder.stop();
    await stopped;
    for (const track of stream.getTracks()) track.stop();
  }
  return new Blob(chunks, { type: 'video/webm' });
}
