// `npm start`: the server from its compiled bundle, built first when its sources changed
// (decision 0051). A cluster worker imports the bundle its primary built.
import cluster from 'node:cluster';
import { pathToFileURL } from 'node:url';
import { buildServerIfStale, serverBundle } from './server-build.mjs';

if (cluster.isPrimary) await buildServerIfStale();
await import(pathToFileURL(serverBundle()).href);
