/**
 * A node's type name and named-ness from one call into WebAssembly (its type id) plus a per-language table;
 * reading `node.type` and `node.isNamed` separately costs a call each, and the walk asks for them a lot.
 */
import type { Language, Node } from 'web-tree-sitter';

export interface NodeKind {
  readonly type: string;
  readonly named: boolean;
}

const errorKind: NodeKind = { type: 'ERROR', named: true };

let cachedLanguage: Language | undefined;
let cachedTable: readonly NodeKind[] = [];

const tableFor = (language: Language): readonly NodeKind[] => {
  if (language !== cachedLanguage) {
    const table: NodeKind[] = [];
    for (let id = 0; id < language.nodeTypeCount; id++)
      table.push({ type: language.types[id] ?? 'ERROR', named: language.nodeTypeIsNamed(id) });
    cachedLanguage = language;
    cachedTable = table;
  }
  return cachedTable;
};

export const kindOf = (node: Node): NodeKind => tableFor(node.tree.language)[node.typeId] ?? errorKind;
