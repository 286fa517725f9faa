// Writing a command's output to stdout, waiting when the pipe is full (a big query result piped
// to `less` is not buffered whole in memory twice).
export async function writeOut(text: string): Promise<void> {
  const CHUNK = 1 << 16;
  for (let i = 0; i < text.length; i += CHUNK) {
    if (!process.stdout.write(text.slice(i, i + CHUNK))) await new Promise((r) => process.stdout.once('drain', r));
  }
}
