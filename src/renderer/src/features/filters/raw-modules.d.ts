// Vite's `?raw` suffix imports a file as its text; declared here because the renderer config loads no vite/client types.
declare module '*.csv?raw' {
  const text: string;
  export default text;
}
