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

    /// Every member `*` or a quoted tag, or the first one that is not, as written.
    @Test func findsTheFirstMemberThatIsNoEntityTag() {
        for field in [#""7""#, #"W/"7""#, "*", #" "1" ,\#tW/"2",*  "#, #""a,b""#, #""", "x""#, "", " , ", #""é""#] {
            #expect(EntityTagList.firstMalformed(in: field) == nil, "\(field)")
        }
        let malformed: [(String, Substring)] = [
            ("7", "7"), (#""6", 7 "#, "7"), ("W/7", "W/7"), (#""7"x"#, #""7"x"#), (#""7"#, #""7"#),
            (#"w/"7""#, #"w/"7""#), (#""a b""#, #""a b""#), (#""a" "b""#, #""a" "b""#), (#"7, "8""#, "7"),
        ]
        for (field, member) in malformed {
            #expect(EntityTagList.firstMalformed(in: field) == member, "\(field)")
        }
    }
}
