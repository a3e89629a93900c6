#!/usr/bin/env node
// Validates Kubernetes manifests (multi-document YAML on stdin, e.g. `helm template` output)
// against the Kubernetes OpenAPI schemas shipped on npm: kubernetes-models for the built-in
// kinds, @kubernetes-models/prometheus-operator for ServiceMonitor and PrometheusRule. A kind
// with no schema here is an error, so nothing passes unvalidated. Prints one JSON line
// { documents: [{ kind, name }], errors: [string] } and exits 1 when there are errors.
// ESM because kubernetes-models is ESM only (Jest here runs CommonJS, so specs spawn this).
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

const CRD_GROUPS = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

async function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const pkg = CRD_GROUPS[group];
  const specifier = pkg ? `${pkg}/${group}/${version}` : group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  const mod = await import(specifier).catch(() => null);
  return mod?.[kind];
}

const documents = [];
const errors = [];
const docs = yaml.loadAll(readFileSync(0, 'utf8')).filter((d) => d !== null && d !== undefined);
for (const doc of docs) {
  const where = `${doc.kind ?? '?'}/${doc.metadata?.name ?? '?'}`;
  if (typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') {
    errors.push(`${where}: no apiVersion or kind`);
    continue;
  }
  const Model = await modelFor(doc.apiVersion, doc.kind);
  if (!Model) {
    errors.push(`${where}: no schema for ${doc.apiVersion} ${doc.kind}`);
    continue;
  }
  try {
    new Model(doc).validate();
    documents.push({ kind: doc.kind, name: doc.metadata?.name });
  } catch (err) {
    errors.push(`${where}: ${err.message}`);
  }
}
console.log(JSON.stringify({ documents, errors }));
process.exit(errors.length ? 1 : 0);
