"""The opening shared by the end-to-end tests' records: accented names before the
cursor (Æther Vial, Jötun Grunt), a hidden hand, a replaced discard."""

OPENING = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 6
"Bob" roll d20 17
start "Bob" by "Bob"
"Bob" draw #1
"Bob" draw #2
"Alice" draw #8 "Æther Vial"
"Alice" draw #9 "Leyline of the Void"
"Alice" draw #10 "Jötun Grunt"
"Bob" keep
"Alice" keep
#9 move hand -> battlefield by #9
turn 1 "Bob"
step upkeep
step draw
"Bob" draw #3
phase main
#1 "Thoughtseize" cast
#1 target "Alice"
#1 resolve
"""
