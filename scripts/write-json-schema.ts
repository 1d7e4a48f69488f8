import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { reportSchema } from '../src/model/schema';
import { historyRunSchema } from '../src/history/schema';

const schema = { ...z.toJSONSchema(reportSchema, { target: 'draft-2020-12' }), $id: 'https://npmjs.com/package/daebug/report.schema.json', title: 'daebug test report' };
const out = path.join(__dirname, '..', 'dist', 'report.schema.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(schema, null, 2) + '\n');

// One run's file of the history folder (the reporter's `history` option): src/history/run-file.ts.
const history = { ...z.toJSONSchema(historyRunSchema, { target: 'draft-2020-12' }), $id: 'https://npmjs.com/package/daebug/history.schema.json', title: 'daebug history run' };
fs.writeFileSync(path.join(path.dirname(out), 'history.schema.json'), JSON.stringify(history, null, 2) + '\n');
