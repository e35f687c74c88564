import MicroHTTP
import Testing

/// `If-Match` and `If-None-Match` lists: the one parser behind static files,
/// coded tags and table versions.
@Suite struct EntityTagListTests {
    @Test func splitsAtCommasAndTrimsSpacesAndTabs() {
        #expect(EntityTagList(" \"1\" ,\tW/\"2\",*  ").tags == [#""1""#, #"W/"2""#, "*"])
        #expect(EntityTagList("").tags.isEmpty)
    }

    @Test func ifNoneMatchComparesWeakly() {
        let list = EntityTagList(#""a", W/"7""#)
        #expect(list.matchesWeakly(#""7""#))
        #expect(list.matchesWeakly(#""a""#))
        #expect(!list.matchesWeakly(#""8""#))
        #expect(!list.matchesWeakly(#""W/"7"""#))
        #expect(EntityTagList("*").matchesWeakly(#""anything""#))
    }

    @Test func ifMatchComparesStrongly() {
        #expect(EntityTagList(#""6", "7""#).matchesStrongly(#""7""#))
        #expect(!EntityTagList(#"W/"7""#).matchesStrongly(#""7""#))
        #expect(!EntityTagList(#""77""#).matchesStrongly(#""7""#))
        #expect(EntityTagList(" * ").matchesStrongly(#""7""#))
    }
}
