import t from 'tap';
import { serverDetail } from './api-error.ts';

t.test('a save failure shows the api detail, else the screen falls back to its own message', async (t) => {
  t.equal(serverDetail({ status: 400, detail: 'name: This field is required' }), 'name: This field is required');
  t.equal(serverDetail({ status: 502, detail: 'Google refused: quota' }), 'Google refused: quota');
  t.equal(serverDetail({ status: 500, detail: 'Internal Server Error' }), undefined, 'internal errors say nothing useful');
  t.equal(serverDetail({ status: 404, detail: 'Request failed (404)' }), undefined, "the client's stand-in text is not a detail");
  t.equal(serverDetail({ status: 'FETCH_ERROR', detail: 'TypeError: Failed to fetch' }), undefined, 'network failure');
  t.equal(serverDetail({ status: 400, detail: '  ' }), undefined);
  t.equal(serverDetail(undefined), undefined);
  t.equal('Error saving Entity', serverDetail({ status: 500, detail: 'Internal Server Error' }) ?? 'Error saving Entity');
});
