import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The dev server proxies the API to a running Folio server (`npm run serve`),
// so `npm run dev` works against the embedded archive on the same origin.
const apiTarget = process.env.FOLIO_API_URL ?? 'http://127.0.0.1:5178';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/public/api': apiTarget,
    },
  },
  build: {
    target: 'es2023',
    sourcemap: true,
    // Every browser that runs the es2023 target supports <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  worker: {
    format: 'es',
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['server/**/*.test.ts', 'src/lib/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          // The SDK's published dist uses extension-less ESM imports that plain Node cannot load;
          // let Vite resolve it.
          server: { deps: { inline: ['@hamsterbase/sdk'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'src/features/**/*.test.ts', 'src/api/**/*.test.ts'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
