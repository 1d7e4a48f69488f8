import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { reportSchema } from '../src/model/schema';

const schema = { ...z.toJSONSchema(reportSchema, { target: 'draft-2020-12' }), $id: 'https://npmjs.com/package/daebug/report.schema.json', title: 'daebug test report' };
const out = path.join(__dirname, '..', 'dist', 'report.schema.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(schema, null, 2) + '\n');
