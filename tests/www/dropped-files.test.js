// The walk of a dropped folder (www/training/dropped-files.js) over entries shaped as the
// browser's FileSystemEntry: a Spark model's folder gives every file of its subfolders,
// however the browser splits a folder's listing into batches; no browser needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesIn, MAX_FOLDER_FILES } from '../../www/training/dropped-files.js';

/** A file entry whose file is its name. */
const file = (name) => ({ isFile: true, isDirectory: false, name, file: (resolve) => setTimeout(() => resolve(name)) });

/** A folder entry whose reader answers `children` `batch` at a time, then an empty batch. */
function folder(name, children, batch = 2) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      let at = 0;
      return {
        readEntries(resolve) {
          const next = children.slice(at, at + batch);
          at += next.length;
          setTimeout(() => resolve(next));
        },
      };
    },
  };
}

test('a Spark model\'s folder gives the files of its metadata/ and data/, listed in batches', async () => {
  const model = folder('model', [
    folder('metadata', [file('part-00000'), file('_SUCCESS')]),
    folder('data', [file('part-00000.snappy.parquet'), file('part-00001.snappy.parquet'), file('part-00002.snappy.parquet'), file('._SUCCESS.crc'), file('_SUCCESS')]),
  ]);
  const files = await filesIn([model]);
  assert.deepEqual(files.sort(), ['._SUCCESS.crc', '_SUCCESS', '_SUCCESS', 'part-00000', 'part-00000.snappy.parquet', 'part-00001.snappy.parquet', 'part-00002.snappy.parquet']);
});

test('files dropped beside a folder are kept, and an empty folder gives nothing', async () => {
  assert.deepEqual(await filesIn([file('a.parquet'), folder('empty', []), file('b.parquet')]), ['a.parquet', 'b.parquet']);
});

test('a folder of more files than the bound gives the bound', async () => {
  const many = Array.from({ length: MAX_FOLDER_FILES + 5 }, (_, i) => file(`f${i}`));
  assert.equal((await filesIn([folder('big', many, 1000)])).length, MAX_FOLDER_FILES);
});
