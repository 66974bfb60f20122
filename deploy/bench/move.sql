-- One move as the room service writes it from memory (games/rooms/game_rows.py,
-- "update_and_insert_if_unchanged"): the conditional UPDATE of the game's row (a new position,
-- version + 1, only at the expected version, status and awaiting) and the Move's INSERT, in one
-- statement, one transaction. For pgbench on a database where docs/SCALING.md's recipe put 1,000
-- games and the table bench_games (n -> id):
--   pgbench -n -M prepared -f deploy/bench/move.sql -c 8 -j 2 -T 15 <database>
\set n random(1, 1000)
\set card random(2, 9)
WITH target AS (SELECT g.id, g.version FROM games_game g JOIN bench_games b ON b.id = g.id WHERE b.n = :n),
moved AS (
    UPDATE games_game SET version = games_game.version + 1,
        position = jsonb_set(games_game.position, '{bench}', to_jsonb(:card::int)),
        status = 'playing', awaiting = '[]'::jsonb, awaiting_since = NULL, updated = now()
    FROM target
    WHERE games_game.id = target.id AND games_game.version = target.version
        AND games_game.status = 'playing' AND games_game.awaiting = '[]'::jsonb
    RETURNING games_game.id, games_game.version
)
INSERT INTO games_move (game_id, seq, seat, action, reason, created)
SELECT id, version, 'S', jsonb_build_object('type', 'discard', 'card', :card::text || 'H'), NULL, now() FROM moved;
