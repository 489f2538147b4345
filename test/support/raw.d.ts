/** Vite's `?raw` imports: a file's text, used to read repository files without Node's fs. */
declare module "*?raw" {
  const text: string;
  export default text;
}
