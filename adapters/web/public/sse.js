/**
 * Incremental Server-Sent Events parser. EventSource cannot POST, so the page reads the
 * response body itself; this handles chunks split anywhere, CRLF/LF/CR line ends and comments.
 */

/**
 * @param {(event: { event: string, data: string }) => void} onEvent
 */
export function createSseParser(onEvent) {
  let buffer = "";
  let eventName = "";
  /** @type {string[]} */
  let dataLines = [];

  function dispatch() {
    if (dataLines.length > 0) onEvent({ event: eventName || "message", data: dataLines.join("\n") });
    eventName = "";
    dataLines = [];
  }

  /** @param {string} line */
  function handleLine(line) {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") eventName = value;
    else if (field === "data") dataLines.push(value);
  }

  return {
    /** Feeds decoded text; complete lines are handled at once. @param {string} text */
    push(text) {
      buffer += text;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A lone "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        handleLine(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
    /** Ends the stream; a last event without its blank line is still delivered. */
    end() {
      if (buffer !== "") handleLine(buffer.replace(/\r$/, ""));
      buffer = "";
      dispatch();
    },
  };
}

/**
 * Reads an SSE response body to its end, calling onEvent for each event.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(event: { event: string, data: string }) => void} onEvent
 */
export async function readSse(body, onEvent) {
  const parser = createSseParser(onEvent);
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}
