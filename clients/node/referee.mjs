// The referee's calls from Node, through reflection alone (no .proto file):
// a game with a Fischer clock, each seat's clock from GetGame, a timeout
// claimed too early (refused: clock.running, read from the error details),
// and a resignation.  Usage: node referee.mjs HOST:PORT
// Prints one JSON line; exits non-zero on any failure.
import * as grpc from "@grpc/grpc-js";
import { GrpcReflection } from "grpc-js-reflection-client";

const target = process.argv[2] ?? "127.0.0.1:50051";
const credentials = grpc.credentials.createInsecure();
const reflection = new GrpcReflection(target, credentials, {}, "v1");
const loaderOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

function call(client, method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 30_000 }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

async function main() {
  const descriptor = await reflection.getDescriptorBySymbol("ledger.v1.GameService");
  const GameService = descriptor.getPackageObject(loaderOptions).ledger.v1.GameService;
  const client = new GameService(target, credentials);
  const { game_types: types } = await call(client, "ListGameTypes", {});
  const pack = types.find((t) => t.name === "thalara").content_packs[0];
  const created = await call(client, "CreateGame", {
    game_type: "thalara",
    setup: pack.example_setups[0],
    time_control: { kind: "fischer", base_seconds: 300, increment_seconds: 5 },
  });
  const gameId = created.game.game_id;
  const { game } = await call(client, "GetGame", { game_id: gameId });
  if (game.clocks.length !== created.tokens.length) throw new Error("no clocks shown");
  let early = null;
  try {
    await call(client, "ClaimTimeout", { game_id: gameId });
  } catch (err) {
    early = err.code === grpc.status.FAILED_PRECONDITION ? err.details : null;
  }
  if (!early || !early.includes("clock.running")) throw new Error(`claim: ${early}`);
  const seat0 = created.tokens.find((t) => t.seats.includes(0)).token;
  const ended = await call(client, "Resign", { game_id: gameId }, seat0);
  const outcome = ended.game.outcome;
  if (outcome.termination_kind !== "TERMINATION_RESIGNED") throw new Error("not resigned");
  console.log(
    JSON.stringify({
      game_id: gameId,
      clocks_ms: game.clocks.map((c) => c.remaining_ms),
      early_claim: early,
      events: ended.events.map((e) => e.type),
      termination: outcome.termination_kind,
      winners: outcome.winners,
    }),
  );
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(1);
});
