// A DNS server on 127.0.0.1 for tests of the SSO domain proof (SSO_DNS_SERVERS=127.0.0.1:<port>): it answers TXT
// questions from `records` (name → strings) and NXDOMAIN for anything else. node:dgram and RFC 1035's wire format.
import dgram from "node:dgram";

export interface DnsStub {
  /** "127.0.0.1:port", for SSO_DNS_SERVERS. */
  address: string;
  /** TXT strings by lowercased name (no trailing dot). */
  records: Map<string, string[]>;
  /** Questions asked so far, as "name TYPE". */
  asked: string[];
  stop(): Promise<void>;
}

const TYPE_TXT = 16;

function readName(message: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at] !== 0) {
    const length = message[at];
    labels.push(message.subarray(at + 1, at + 1 + length).toString("latin1"));
    at += length + 1;
  }
  return { name: labels.join(".").toLowerCase(), next: at + 1 };
}

function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

function answer(query: Buffer, records: Map<string, string[]>, asked: string[]): Buffer {
  const { name, next } = readName(query, 12);
  const type = query.readUInt16BE(next);
  asked.push(`${name} ${type === TYPE_TXT ? "TXT" : type}`);
  const question = query.subarray(12, next + 4);
  const values = type === TYPE_TXT ? (records.get(name) ?? null) : null;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  // QR, opcode 0, AA, RD copied, RA; RCODE 3 (NXDOMAIN) when the name is unknown.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (values ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values?.length ?? 0, 6);
  const answers = (values ?? []).map((value) => {
    const data = txtData(value);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(TYPE_TXT, 2);
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

/** On a free port, or on `port` (the browser suite fixes its ports before the app server starts). */
export async function startDnsStub(port = 0): Promise<DnsStub> {
  const socket = dgram.createSocket("udp4");
  const records = new Map<string, string[]>();
  const asked: string[] = [];
  socket.on("message", (message, remote) => {
    try {
      socket.send(answer(message, records, asked), remote.port, remote.address);
    } catch {
      // a malformed question gets no answer
    }
  });
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    records,
    asked,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
