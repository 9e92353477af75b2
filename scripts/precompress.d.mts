/** Whether `file` (a name) gets `.gz` and `.br` copies when it is at least 1 KiB long. */
export function isCompressible(file: string): boolean;
/** Writes `.gz` and `.br` beside each text asset of `dir` (recursively); returns the files compressed. */
export function precompress(dir: string): string[];
