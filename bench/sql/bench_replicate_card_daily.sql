-- bench_replicate_card_daily: low_card_daily from all (replicated) placements, as migration 005 fills it.
-- parameters: none
-- output: none
INSERT INTO low_card_daily
SELECT system, played_on, coalesce(tournament, ''), coalesce(variant, ''), coalesce(rules_version, ''), army, card,
       result = 'win', count(*), sum(kills), sum(shot_kills), sum(shots), sum(shots_killing),
       count_if(fate = 'destroyed'), count_if(fate = 'recalled'), count_if(first_of_card),
       count_if(first_of_card AND own_faction)
FROM low_placements
WHERE result IS NOT NULL
GROUP BY ALL;
