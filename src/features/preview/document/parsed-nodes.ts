// The parsed document's nodes (htmlparser2's domhandler tree), as the worker's modules read them.
import type { ChildNode, Element } from 'domhandler';

/** Whether a node is an element (domhandler gives `<script>` and `<style>` types of their own). */
export function isElement(node: ChildNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}
