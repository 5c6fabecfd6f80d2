// @ts-check
// The files of what was dropped on the page, a dropped folder walked: a Spark Word2VecModel's
// saved folder holds its metadata/ and data/ files, which open together.

/** Files taken from a dropped folder at most: a Spark model's folder holds a few dozen. */
export const MAX_FOLDER_FILES = 10_000;

/**
 * The files of dropped entries, folders walked (a Spark `Word2VecModel` folder dropped
 * whole: its `metadata/` and `data/` files), up to MAX_FOLDER_FILES.
 * @param {FileSystemEntry[]} entries @returns {Promise<File[]>}
 */
export async function filesIn(entries) {
  const files = [];
  const queue = [...entries];
  while (queue.length && files.length < MAX_FOLDER_FILES) {
    const entry = queue.shift();
    if (entry.isFile) {
      files.push(await new Promise((resolve, reject) => /** @type {FileSystemFileEntry} */ (entry).file(resolve, reject)));
    } else if (entry.isDirectory) {
      const reader = /** @type {FileSystemDirectoryEntry} */ (entry).createReader();
      // readEntries answers in batches, and an empty batch at the end.
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        queue.push(...batch);
      }
    }
  }
  return files;
}
