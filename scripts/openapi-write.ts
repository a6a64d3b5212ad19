/**
 * `npm run openapi:write [FILE]`: writes the OpenAPI document the app serves
 * (default: dist/openapi.json), so that `npm run check` can lint it with
 * Redocly (redocly.yaml) and the client's types can be generated from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openapiDocument } from './openapi-document.js';

const file = path.resolve(process.argv[2] ?? 'dist/openapi.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(await openapiDocument(), null, 2)}\n`);
process.stdout.write(`${path.relative(process.cwd(), file)}\n`);
