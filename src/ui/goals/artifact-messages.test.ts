import { describe, expect, it } from 'vitest';
import { artifactSummary, artifactsByGoal, noPreviewText, previewKindOf } from './artifact-messages.ts';

describe('artifactSummary', () => {
  it('says the cycle and tool that wrote the artifact, and its size', () => {
    expect(artifactSummary({ cycle: 4, tool: 'file_io', size: 2048 })).toBe('Written at cycle 4 by file_io, 2 KB');
    expect(artifactSummary({ cycle: 1200, tool: 'mcp', size: 3 * 2 ** 20 })).toBe(
      'Written at cycle 1,200 by mcp, 3 MB',
    );
  });
});

describe('artifactsByGoal', () => {
  it('groups artifacts by goal, keeping their order', () => {
    const byGoal = artifactsByGoal([
      { goalId: 2, name: 'newest' },
      { goalId: 1, name: 'only' },
      { goalId: 2, name: 'older' },
    ]);
    expect(byGoal.get(1)?.map((item) => item.name)).toEqual(['only']);
    expect(byGoal.get(2)?.map((item) => item.name)).toEqual(['newest', 'older']);
    expect(byGoal.has(3)).toBe(false);
  });
});

describe('previewKindOf', () => {
  it('previews text and JSON as text, raster images as images, and nothing else', () => {
    expect(previewKindOf({ kind: 'text', mediaType: 'text/markdown' })).toBe('text');
    expect(previewKindOf({ kind: 'json', mediaType: 'application/json' })).toBe('text');
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(previewKindOf({ kind: 'image', mediaType: type })).toBe('image');
    expect(previewKindOf({ kind: 'image', mediaType: 'image/svg+xml' })).toBe('none');
    expect(previewKindOf({ kind: 'image', mediaType: 'image/x-icon' })).toBe('none');
    expect(previewKindOf({ kind: 'binary', mediaType: 'image/png' })).toBe('none');
    expect(previewKindOf({ kind: 'binary', mediaType: 'application/pdf' })).toBe('none');
  });

  it('says why a file is not shown', () => {
    expect(noPreviewText({ kind: 'image', mediaType: 'image/svg+xml' })).toContain(
      'only PNG, JPEG, GIF and WebP images are shown',
    );
    expect(noPreviewText({ kind: 'binary', mediaType: 'application/pdf' })).toBe(
      'Not shown here (application/pdf): download it to open it.',
    );
  });
});
