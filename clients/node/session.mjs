// A stranger's seat-session client: one game, one stream per seat.
//
// It has no .proto file and no game rules: SeatSessionService and every
// message come from server reflection (grpc.reflection.v1), the setup from
// ListGameTypes' example setups.  Each seat opens `Play`, answers every
// legal-move page the server offers at its turn with a random move of that
// page, and follows the events until the server ends the stream after the
// game's conclusion.  Along the way it checks what a client may rely on: a
// refused move is answered in the stream (a google.rpc.Status) and the
// session goes on; a resent command id is answered `replayed`; every event
// arrives once, in order.
// Usage: node session.mjs HOST:PORT [GAME_TYPE]
// Prints one JSON line; exits non-zero on any failure.
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { GrpcReflection } from "grpc-js-reflection-client";

const target = process.argv[2] ?? "127.0.0.1:50051";
const wanted = process.argv[3] ?? "terralore";
const credentials = grpc.credentials.createInsecure();
const reflection = new GrpcReflection(target, credentials, {}, "v1");
const loaderOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

async function serviceClient(name) {
  const descriptor = await reflection.getDescriptorBySymbol(`ledger.v1.${name}`);
  const Service = descriptor.getPackageObject(loaderOptions).ledger.v1[name];
  return new Service(target, credentials);
}

function unary(client, method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 30_000 }, (err, res) =>
      err ? reject(new Error(`${method}: ${err.code} ${err.details}`)) : resolve(res),
    ),
  );
}

// One seat's session, played to the end; resolves with what it saw.
function playSeat(sessions, gameId, token, seatLabel) {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  const call = sessions.Play(metadata);
  const seen = { seat: seatLabel, events: [], accepted: 0, replayed: 0, refused: [] };
  let probed = false;
  let resent = false;
  return new Promise((resolve, reject) => {
    call.on("data", (message) => {
      if (message.kind === "event") {
        seen.events.push(message.event.version);
      } else if (message.kind === "moves" && message.ref === "") {
        const page = message.moves;
        if (page.moves.length === 0) return;
        const move = page.moves[Math.floor(Math.random() * page.moves.length)];
        if (!probed) {
          // a refusal comes back in the stream; the session goes on
          probed = true;
          call.write({
            ref: "probe",
            move: { command_id: randomUUID(), move, seat: page.seat, expected_version: -1 },
          });
        }
        const commandId = randomUUID();
        call.write({ ref: `move:${commandId}`, move: { command_id: commandId, move, seat: page.seat } });
        if (!resent) {
          // the same command id again: answered replayed, stored once
          resent = true;
          call.write({ ref: `again:${commandId}`, move: { command_id: commandId, move, seat: page.seat } });
        }
      } else if (message.kind === "accepted") {
        if (message.accepted.replayed) seen.replayed += 1;
        else seen.accepted += 1;
      } else if (message.kind === "refused") {
        seen.refused.push({ ref: message.ref, code: message.refused.code });
      } else if (message.kind === "state") {
        seen.state = message.state;
      }
    });
    call.on("error", (err) => reject(new Error(`${seatLabel}: ${err.code} ${err.details}`)));
    call.on("end", () => resolve(seen));
    call.write({ ref: "open", open: { game_id: gameId, page_size: 50 } });
  });
}

async function main() {
  const services = await reflection.listServices();
  if (!services.includes("ledger.v1.SeatSessionService")) {
    throw new Error(`no ledger.v1.SeatSessionService in ${services}`);
  }
  const games = await serviceClient("GameService");
  const sessions = await serviceClient("SeatSessionService");
  const { game_types: gameTypes } = await unary(games, "ListGameTypes", {});
  const gameType = gameTypes.find((g) => g.name === wanted);
  if (!gameType) throw new Error(`no game type ${wanted}`);
  const setup = gameType.content_packs[0].example_setups[0];
  const created = await unary(games, "CreateGame", { game_type: gameType.name, setup });
  const gameId = created.game.game_id;
  const seen = await Promise.all(
    created.tokens.map((t) => playSeat(sessions, gameId, t.token, t.seats.join("+"))),
  );
  for (const s of seen) {
    const expected = Array.from({ length: s.events.length }, (_, i) => i + 1);
    if (JSON.stringify(s.events) !== JSON.stringify(expected)) {
      throw new Error(`seat ${s.seat}: events not once and in order: ${s.events}`);
    }
    if (s.state?.status_kind !== "GAME_STATUS_ENDED") {
      throw new Error(`seat ${s.seat}: the session ended before the game`);
    }
    if (!s.refused.some((r) => r.ref === "probe")) {
      throw new Error(`seat ${s.seat}: the probe was not refused in the stream`);
    }
  }
  const outcome = seen[0].state.outcome;
  console.log(
    JSON.stringify({
      game_type: gameType.name,
      game_id: gameId,
      version: seen[0].state.version,
      termination: outcome.termination_kind,
      seats: seen.map((s) => ({
        seat: s.seat,
        events: s.events.length,
        accepted: s.accepted,
        replayed: s.replayed,
        refused: s.refused.map((r) => r.code),
      })),
    }),
  );
  games.close();
  sessions.close();
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(1);
});
