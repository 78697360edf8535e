// A stranger's acceptance client: it has no .proto file and no game rules.
//
// Everything comes from the server: the GameService API and every game's
// messages through server reflection (grpc.reflection.v1), the games, their
// content packs and valid example setups from ListGameTypes, and the moves
// from ListLegalMoves (`sample: 1`: one uniformly random legal move).  Per
// content pack it creates one game from a setup it builds from the described
// fields alone, then plays one complete game per example setup of every game
// type and checks each one ends with an outcome.  Usage: node play.mjs HOST:PORT [MAX_MOVES]
// Prints one JSON line per game; exits non-zero on any failure.
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { GrpcReflection } from "grpc-js-reflection-client";

const target = process.argv[2] ?? "127.0.0.1:50051";
const maxMoves = Number(process.argv[3] ?? 3000);
const credentials = grpc.credentials.createInsecure();
const reflection = new GrpcReflection(target, credentials, {}, "v1");
const loaderOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

function call(client, method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 30_000 }, (err, res) =>
      err ? reject(new Error(`${method}: ${err.code} ${err.details}`)) : resolve(res),
    ),
  );
}

async function gameService() {
  const services = await reflection.listServices();
  if (!services.includes("ledger.v1.GameService")) {
    throw new Error(`no ledger.v1.GameService in ${services}`);
  }
  const descriptor = await reflection.getDescriptorBySymbol("ledger.v1.GameService");
  const GameService = descriptor.getPackageObject(loaderOptions).ledger.v1.GameService;
  return new GameService(target, credentials);
}

// Every message ListGameTypes names must resolve through reflection alone.
async function resolveMessages(gameType) {
  const names = ["setup_message", "move_message", "event_message", "view_message"];
  const types = {};
  for (const kind of names) {
    const name = gameType[kind];
    const root = (await reflection.getDescriptorBySymbol(name)).getProtobufJsRoot();
    types[kind] = root.lookupType(name);
  }
  return types;
}

async function playOne(client, gameType, types, setup) {
  const shown = types.setup_message.toObject(types.setup_message.decode(setup.value));
  const created = await call(client, "CreateGame", {
    game_type: gameType.name,
    setup,
  });
  const gameId = created.game.game_id;
  const tokenOfSeat = new Map();
  for (const t of created.tokens) for (const s of t.seats) tokenOfSeat.set(s, t.token);
  let summary = created.game;
  let moves = 0;
  while (summary.status_kind !== "GAME_STATUS_ENDED") {
    if (moves >= maxMoves) throw new Error(`${gameId}: no end after ${moves} moves`);
    if (summary.to_act.length === 0) throw new Error(`${gameId}: nobody to act`);
    const seat = summary.to_act[Math.floor(Math.random() * summary.to_act.length)];
    const token = tokenOfSeat.get(seat);
    const listed = await call(client, "ListLegalMoves", { game_id: gameId, seat, sample: 1 }, token);
    if (listed.moves.length !== 1 || listed.total_size < 1) {
      throw new Error(`${gameId}: seat ${seat} to act but no legal move`);
    }
    const done = await call(
      client,
      "SubmitMove",
      { game_id: gameId, command_id: randomUUID(), move: listed.moves[0], seat },
      token,
    );
    summary = done.game;
    moves += 1;
  }
  if (!summary.outcome || summary.outcome.termination_kind === "TERMINATION_UNSPECIFIED") {
    throw new Error(`${gameId}: ended without an outcome`);
  }
  return {
    game_type: gameType.name,
    setup: shown,
    game_id: gameId,
    moves,
    version: summary.version,
    termination: summary.outcome.termination_kind,
    ranks: summary.outcome.ranks,
  };
}

// A setup built from ListGameTypes' field descriptions alone (not an example):
// the most players the pack allows, each per-seat field filled with distinct
// allowed values, everything else left empty (empty means default).
function buildSetup(pack, setupType) {
  const fields = {};
  for (const f of setupType.fieldsArray) fields[f.name] = f;
  const value = { players: pack.max_players };
  for (const field of pack.setup_fields) {
    if (field.per_seat && field.allowed_values.length > 0 && fields[field.name]) {
      value[field.name] = Array.from(
        { length: pack.max_players },
        (_, i) => field.allowed_values[i % field.allowed_values.length],
      );
    }
  }
  const message = setupType.create(value);
  return {
    type_url: `type.googleapis.com/${setupType.fullName.replace(/^\./, "")}`,
    value: Buffer.from(setupType.encode(message).finish()),
  };
}

async function main() {
  const client = await gameService();
  const { game_types: gameTypes } = await call(client, "ListGameTypes", {});
  if (gameTypes.length === 0) throw new Error("no game types");
  let played = 0;
  let built_setups = 0;
  const games = [];
  for (const gameType of gameTypes) {
    const types = await resolveMessages(gameType);
    for (const pack of gameType.content_packs) {
      if (pack.example_setups.length === 0) {
        throw new Error(`${gameType.name}/${pack.name}: no example setup`);
      }
      const built = buildSetup(pack, types.setup_message);
      const created = await call(client, "CreateGame", { game_type: gameType.name, setup: built });
      if (created.game.players !== pack.max_players) {
        throw new Error(`${gameType.name}: a built setup made ${created.game.players} players`);
      }
      built_setups += 1;
      for (const setup of pack.example_setups) {
        games.push(playOne(client, gameType, types, setup));
      }
    }
  }
  // every game at once: a move's round trips overlap with other games' moves
  for (const result of await Promise.all(games)) {
    console.log(JSON.stringify(result));
    played += 1;
  }
  console.log(
    JSON.stringify({ played, built_setups, game_types: gameTypes.map((g) => g.name) }),
  );
  client.close();
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(1);
});
