-- The menu statement, as a function: PL/pgSQL keeps the plan of its statement for the
-- connection, so a menu request is not planned again every time (decision 0003). One row per
-- visible collection with its links as arrays, then one row each for favorites, teams (with
-- the person's role and, for those who run the team, its open suggestions), shares and the
-- organization space's open suggestions (for administrators); see modules/menu/menu.repository.ts for how the rows are read.
--
-- This file is the function's source. The migration runner applies it after the numbered
-- migrations when its version is newer than the database's (decision 0006): edit it in
-- place and raise the version. Changing the function's arguments or result needs a
-- numbered migration that drops the old one first.
-- version: 5

-- p_skip_teams and p_skip_organization name the team spaces and the organization space whose
-- serialized form the server already holds for the versions it read (decision 0057): their
-- collections and links are left out.
CREATE OR REPLACE FUNCTION signpost_menu(p_organization_id text, p_user_id text,
                                         p_skip_teams text[], p_skip_organization boolean)
RETURNS TABLE (kind text, data json)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  WITH RECURSIVE me AS (
    SELECT u.role = 'admin' AS admin FROM users u WHERE u.id = p_user_id
  ), my_teams AS (
    SELECT t.id, t.name, t.buddy_id, tm.role FROM team_memberships tm
    JOIN teams t ON t.id = tm.team_id
    WHERE tm.user_id = p_user_id AND t.organization_id = p_organization_id
  ), shared_tree AS (
    SELECT c.id, 0 AS depth FROM share_members m
    JOIN collection_shares s ON s.id = m.share_id
    JOIN collections c ON c.id = s.collection_id
    WHERE m.user_id = p_user_id AND c.owner_user_id <> p_user_id
      AND s.organization_id = p_organization_id
    UNION ALL
    SELECT c.id, st.depth + 1 FROM collections c
    JOIN shared_tree st ON c.parent_id = st.id
    WHERE st.depth < 100
  ), visible AS (
    SELECT c.* FROM collections c WHERE c.owner_user_id = p_user_id
    UNION ALL
    SELECT c.* FROM collections c
    WHERE c.owner_team_id IN (SELECT id FROM my_teams WHERE id <> ALL (p_skip_teams))
    UNION ALL
    SELECT c.* FROM collections c
    WHERE NOT p_skip_organization
      AND c.organization_id = p_organization_id AND c.owner_type = 'organization'
    UNION ALL
    SELECT c.* FROM collections c WHERE c.id IN (SELECT id FROM shared_tree)
  )
  SELECT 'collection'::text AS kind, json_build_object(
    'id', v.id, 'ownerType', v.owner_type, 'ownerUserId', v.owner_user_id,
    'ownerTeamId', v.owner_team_id, 'parentId', v.parent_id, 'isRoot', v.is_root,
    'name', v.name, 'description', v.description, 'color', v.color,
    'position', v.position,
    'links', (
      SELECT coalesce(json_agg(json_build_array(
        l.id, l.name, l.description, l.url, l.icon, l.app_name, l.created_by,
        l.position) ORDER BY l.position, l.created_at, l.id), '[]')
      FROM links l WHERE l.collection_id = v.id)
  ) AS data
  FROM visible v
  UNION ALL
  SELECT 'favorites', (
    SELECT coalesce(json_agg(json_build_object(
      'id', f.id, 'linkId', l.id, 'collectionId', f.collection_id,
      'position', f.position, 'name', l.name, 'description', l.description,
      'url', l.url, 'icon', l.icon, 'appName', l.app_name)), '[]')
    FROM favorites f
    JOIN links l ON l.id = f.link_id
    JOIN collections lc ON lc.id = l.collection_id
    WHERE f.user_id = p_user_id
      AND (lc.owner_team_id IN (SELECT id FROM my_teams)
           OR (lc.owner_type = 'organization' AND lc.organization_id = p_organization_id)))
  UNION ALL
  SELECT 'teams', (
    SELECT coalesce(json_agg(json_build_object(
      'id', t.id, 'name', t.name, 'role', t.role,
      'openSuggestions', CASE WHEN t.role = 'editor' OR (SELECT admin FROM me) THEN (
        SELECT count(*) FROM link_suggestions ls
        JOIN collections sc ON sc.id = ls.collection_id
        WHERE sc.owner_team_id = t.id AND ls.status = 'open') END,
      'buddy', CASE WHEN b.id IS NULL THEN NULL ELSE json_build_object('id', b.id, 'name', b.name, 'email', b.email) END
    ) ORDER BY lower(t.name), t.id), '[]')
    FROM my_teams t LEFT JOIN users b ON b.id = t.buddy_id AND b.status = 'active')
  UNION ALL
  SELECT 'shares', (
    SELECT coalesce(json_agg(json_build_object(
      'id', s.id, 'collectionId', s.collection_id, 'createdBy', s.created_by,
      'members', (
        SELECT coalesce(json_agg(json_build_object('id', u.id, 'name', u.name, 'email', u.email) ORDER BY lower(u.name), u.id), '[]')
        FROM share_members sm JOIN users u ON u.id = sm.user_id
        WHERE sm.share_id = s.id AND sm.direct AND u.status = 'active'),
      'teams', (
        SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY lower(t.name), t.id), '[]')
        FROM share_teams st JOIN teams t ON t.id = st.team_id
        WHERE st.share_id = s.id)
    )), '[]')
    FROM collection_shares s WHERE s.collection_id IN (SELECT id FROM visible))
  UNION ALL
  SELECT 'organization', (
    SELECT json_build_object(
      'feedbackUrl', o.feedback_url, 'consentUrl', o.consent_url,
      'intros', json_build_object('personal', o.personal_intro, 'team', o.team_intro,
                                  'organization', o.organization_intro),
      'openSuggestions', CASE WHEN (SELECT admin FROM me) THEN (
        SELECT count(*) FROM link_suggestions ls
        JOIN collections sc ON sc.id = ls.collection_id
        WHERE ls.organization_id = p_organization_id AND sc.owner_type = 'organization'
          AND ls.status = 'open') END)
    FROM organizations o WHERE o.id = p_organization_id);
END $$;
