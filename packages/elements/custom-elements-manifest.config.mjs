// `npx cem analyze` reads this file (the build runs it). Module paths in the manifest name the files a
// merchant's tools load from the package: dist/*.js, not the TypeScript sources.
const sourcePath = /^\/?src\/(.+)\.(?:ts|js)$/;

function pointAtDist(node) {
  if (Array.isArray(node)) return node.forEach(pointAtDist);
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'path' || key === 'module') && typeof value === 'string') {
      node[key] = value.replace(sourcePath, 'dist/$1.js');
    } else pointAtDist(value);
  }
}

export default {
  // three-ds-element.ts: what <pg-3ds-v2> and <pg-3ds-v1> inherit, so the manifest lists it for both.
  globs: ['src/*/*.component.ts', 'src/three-ds/three-ds-element.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'pg-dist-paths',
      packageLinkPhase({ customElementsManifest }) {
        pointAtDist(customElementsManifest.modules);
      },
    },
  ],
};
