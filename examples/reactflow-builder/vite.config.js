import { defineConfig } from "vite";

// Vite compiles the JSX itself (esbuild); the React plugin only adds fast refresh, not needed here.
export default defineConfig({
  esbuild: { jsx: "automatic" },
  build: { target: "es2022" },
  // The palette reads examples/nodes/*.logic.md, outside this folder.
  server: { fs: { allow: ["../.."] } },
});
