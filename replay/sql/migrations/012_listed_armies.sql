-- 012_listed_armies: games stored before the listing kept each seat's army label (metadata.armies, the `army`
-- filter of GET /games and of the pages' game list) get it from the projection's proj_seats, which has the same
-- labels (the system's Labels part). Games the projector had not reached when this runs keep no listing: they
-- are found by every other filter, and a game stored from now on carries its labels from its first event.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
UPDATE games
SET metadata = json_merge_patch(games.metadata, json_object('armies', listed.armies))::VARCHAR
FROM (
    SELECT game_id, json_group_object(seat, army) AS armies
    FROM proj_seats
    WHERE army <> ''
    GROUP BY game_id
) AS listed
WHERE games.game_id = listed.game_id
  AND json_extract(games.metadata, '$.armies') IS NULL;
